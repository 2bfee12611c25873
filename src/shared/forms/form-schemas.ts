import * as z from 'zod/mini';
import { fieldLimits, fieldMessages, type FormKind } from './form-fields';

/**
 * One schema per visitor form, shared by the browser and the server (DESIGN.md "Decisions":
 * per-field limits). Written with zod/mini so that the part the browser needs stays a few KB,
 * and kept apart from form-fields.ts so that pages needing only the constants load no zod.
 */

// Control characters never belong in a name or an address (they would reach mail headers and
// logs); a message keeps its line breaks and tabs but loses the rest (PostgreSQL refuses NUL).
// eslint-disable-next-line no-control-regex
const lineControls = /[\u0000-\u001f\u007f\u2028\u2029]+/g;
// eslint-disable-next-line no-control-regex
const textControls = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]+/g;

const text = (message: string) => z.string({ error: message });

const name = text(fieldMessages.nameMissing).check(
  z.overwrite((value) => value.replace(lineControls, ' ')),
  z.trim(),
  z.minLength(1, fieldMessages.nameMissing),
  z.maxLength(fieldLimits.name, fieldMessages.nameTooLong),
);

/** A visitor's address, as every form (and the download-link request) checks it. */
export const emailSchema = text(fieldMessages.emailMissing).check(
  z.trim(),
  z.minLength(1, fieldMessages.emailMissing),
  z.maxLength(fieldLimits.email, fieldMessages.emailTooLong),
  z.email(fieldMessages.emailInvalid),
);

const messageText = text(fieldMessages.messageMissing).check(
  z.overwrite((value) => value.replace(textControls, '')),
  z.trim(),
  z.maxLength(fieldLimits.message, fieldMessages.messageTooLong),
);

const requiredMessage = messageText.check(z.minLength(1, fieldMessages.messageMissing));
const optionalMessage = z._default(messageText, '');

const withMessage = z.object({ name, email: emailSchema, message: requiredMessage });

export const formSchemas = {
  order: z.object({ name, email: emailSchema, message: optionalMessage }),
  contact: withMessage,
  refund: withMessage,
  'terms-feedback': withMessage,
  'free-guide': z.object({ name, email: emailSchema }),
} satisfies Record<FormKind, z.ZodMiniType>;

export type FormInput<K extends FormKind> = z.output<(typeof formSchemas)[K]>;

/** The first problem with a submission, as a sentence the form can show. */
export function firstIssue(error: z.core.$ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'The form could not be read.';
  return issue.path.length === 0 ? 'The form could not be read.' : issue.message;
}
