import fc from 'fast-check';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { sendCodeBody, signInBody } from '../../../src/server/auth/auth-routes';
import { authApi } from '../../../src/shared/auth';
import { freshIp } from '../sign-in';
import { entriesOf, extraEntries, hostileBody, parsedJson, type FuzzBody } from './fuzz-body';
import { validEmail } from './form-fuzz';
import { answerProblem } from './fuzz-route';
import { hostileString, hostileValue } from './hostile-values';

const email = fc.oneof(
  { weight: 4, arbitrary: validEmail },
  { weight: 1, arbitrary: validEmail.map((address) => ` ${address.toUpperCase()}\t`) },
  { weight: 2, arbitrary: hostileValue(254) },
);

export const sendCodeBodies: fc.Arbitrary<FuzzBody> = hostileBody(
  entriesOf(
    {
      email,
      type: fc.oneof(
        { weight: 4, arbitrary: fc.constant('sign-in') },
        {
          weight: 1,
          arbitrary: fc.constantFrom('email-verification', 'forget-password', 'SIGN-IN'),
        },
        { weight: 1, arbitrary: hostileValue(50) },
      ),
    },
    extraEntries,
  ),
);

export const signInBodies: fc.Arbitrary<FuzzBody> = hostileBody(
  entriesOf(
    {
      email,
      otp: fc.oneof(
        fc.stringMatching(/^\d{6}$/),
        fc.constantFrom('000000', '123456', ' 123456 ', "' or 1=1--", '１２３４５６'),
        hostileString(20),
        hostileValue(20),
      ),
    },
    extraEntries,
  ),
);

/** A request from the site's own sign-in page, from an address of its own (per-IP limits). */
export function sendAuth(app: FastifyInstance, url: string, body: FuzzBody) {
  return app.inject({
    method: 'POST',
    url,
    remoteAddress: freshIp(),
    headers: {
      origin: app.config.publicUrl,
      ...(body.contentType === undefined ? {} : { 'content-type': body.contentType }),
    },
    payload: body.payload,
  });
}

/** A code is sent only for a body the route's schema accepts; 429 is a clear refusal too. */
export function checkSendCode(body: FuzzBody, response: LightMyRequestResponse): string | null {
  const problem = answerProblem(response, 'api');
  if (problem || response.statusCode >= 300) return problem;
  const parsed = parsedJson(body);
  if (!parsed || !sendCodeBody.safeParse(parsed.value).success) {
    return `answered ${response.statusCode} to a body the schema refuses`;
  }
  return null;
}

/** No generated body knows a code that was mailed, so no sign-in may succeed. */
export function checkSignIn(_body: FuzzBody, response: LightMyRequestResponse): string | null {
  const problem = answerProblem(response, 'api');
  if (problem) return problem;
  if (response.statusCode < 300) {
    const parsed = parsedJson(_body);
    const shape = parsed && signInBody.safeParse(parsed.value).success ? 'valid' : 'invalid';
    return `signed in (${response.statusCode}) with an ${shape} body and no mailed code`;
  }
  return null;
}

export { authApi };
