import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { formApiPath } from '../../../src/shared/forms/form-api';
import { fieldLimits, HONEYPOT_FIELD, type FormKind } from '../../../src/shared/forms/form-fields';
import { formSchemas } from '../../../src/shared/forms/form-schemas';
import { FORM_BODY_LIMIT } from '../../../src/server/forms/form-routes';
import { freshIp } from '../sign-in';
import {
  byteLength,
  entriesOf,
  extraEntries,
  hasPrototypeKey,
  hostileBody,
  parsedJson,
  type FuzzBody,
} from './fuzz-body';
import { hostileString, hostileValue } from './hostile-values';
import { answerProblem } from './fuzz-route';

const localPart = fc.stringMatching(/^[a-z0-9][a-z0-9._+-]{0,20}[a-z0-9]$/);

/** Addresses the schema accepts, different enough that duplicates stay rare. */
export const validEmail = fc
  .tuple(localPart, fc.nat(), fc.constantFrom('example.com', 'mail.example.org', 'EXAMPLE.net'))
  .map(([local, n, domain]) => `${local}.${n}@${domain}`);

const validName = fc.oneof(
  fc.string({ minLength: 1, maxLength: fieldLimits.name }).filter((s) => s.trim() !== ''),
  fc.constantFrom('Ana', "O'Brien", 'Zoë Ñúñez', '李小龍', 'Robert"); drop table x;--'),
);

const validMessage = fc.oneof(
  fc.string({ maxLength: 300 }),
  fc.string({ unit: 'grapheme', maxLength: fieldLimits.message / 4 }),
);

const honeypot = fc.oneof(
  { weight: 6, arbitrary: fc.constant('') },
  { weight: 1, arbitrary: fc.oneof(fc.string({ maxLength: 20 }), fc.constant(null), fc.boolean()) },
);

function valueOr(valid: fc.Arbitrary<unknown>, limit: number) {
  return fc.oneof({ weight: 3, arbitrary: valid }, { weight: 2, arbitrary: hostileValue(limit) });
}

/** Form bodies: valid ones, hostile values in every field, and every malformed body. */
export const formBodies: fc.Arbitrary<FuzzBody> = hostileBody(
  entriesOf(
    {
      name: valueOr(validName, fieldLimits.name),
      email: valueOr(
        fc.oneof(
          { weight: 4, arbitrary: validEmail },
          { weight: 1, arbitrary: hostileString(300) },
        ),
        fieldLimits.email,
      ),
      message: valueOr(validMessage, fieldLimits.message),
      [HONEYPOT_FIELD]: honeypot,
    },
    extraEntries,
  ),
);

/** The app's honeypot rule: answered like a success, stored nowhere. */
export function honeypotFilled(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const filled = (value as Record<string, unknown>)[HONEYPOT_FIELD];
  return filled !== undefined && filled !== null && filled !== '' && filled !== false;
}

export function sendForm(app: FastifyInstance, form: FormKind, body: FuzzBody) {
  return app.inject({
    method: 'POST',
    url: formApiPath(form),
    remoteAddress: freshIp(),
    headers: body.contentType === undefined ? {} : { 'content-type': body.contentType },
    payload: body.payload,
  });
}

/**
 * Counts the bodies that should have stored a row, and checks each answer: never a 5xx, every
 * refusal a clear 4xx; a success only for a body the form's schema accepts (or a honeypot
 * catch), and a body the schema accepts is not refused.
 */
export function formChecker(form: FormKind) {
  const schema = formSchemas[form];
  const counts = { stored: 0 };
  function check(body: FuzzBody, response: { statusCode: number; json(): unknown }) {
    const problem = answerProblem(response as never, 'form');
    if (problem) return problem;
    const parsed = parsedJson(body);
    const accepted = parsed !== undefined && schema.safeParse(parsed.value).success;
    const trap = parsed !== undefined && honeypotFilled(parsed.value);
    if (response.statusCode < 300) {
      if (!parsed) return `answered ${response.statusCode} to a body that is not JSON`;
      if (!accepted && !trap) return `answered ${response.statusCode} to a body the schema refuses`;
      const answer = response.json() as { status?: string };
      if (answer.status === 'success' && !trap) counts.stored++;
      else if (answer.status !== 'duplicate' && !trap) return `answered ${JSON.stringify(answer)}`;
      return null;
    }
    const clean =
      accepted &&
      !trap &&
      !hasPrototypeKey(body) &&
      byteLength(body) <= FORM_BODY_LIMIT &&
      response.statusCode !== 429;
    if (clean) return `refused (${response.statusCode}) a body the schema accepts`;
    return null;
  }
  return { check, counts };
}
