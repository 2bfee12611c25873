import * as z from 'zod/mini';

/** One email as the app composes it. `html` and `text` must already escape visitor input. */
export type MailMessage = {
  to: string[];
  subject: string;
  html: string;
  text: string;
  /** The visitor's address, so the owner can answer with one click. Dropped if invalid. */
  replyTo?: string;
  /** Extra headers (a list email's List-Unsubscribe and List-Unsubscribe-Post), one line each. */
  headers?: Record<string, string>;
};

/** What a send comes to; sending never throws. */
export type SendResult =
  | { status: 'sent' }
  /** `permanent`: the mail server refused the message for good (an SMTP 5xx reply). */
  | { status: 'failed'; error: string; permanent?: boolean };

/** A message ready for a transport: one-line headers, valid addresses, a sender. */
export type OutgoingMail = MailMessage & { from: string };

const address = z.email();

/** Header values never carry CR, LF or other control characters (no header injection). */
export function singleLine(value: string): string {
  // eslint-disable-next-line no-control-regex
  return value.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ').trim();
}

export function isValidAddress(value: string): boolean {
  return address.safeParse(value).success && singleLine(value) === value;
}

/**
 * Checks a message before it reaches a transport: recipients must be valid addresses (an
 * invalid one is a programming error), the subject is made one line, and an invalid Reply-To
 * is left out rather than passed on.
 */
export function toOutgoing(message: MailMessage, from: string): OutgoingMail {
  const invalid = message.to.filter((recipient) => !isValidAddress(recipient));
  if (message.to.length === 0 || invalid.length > 0) {
    throw new Error(`Invalid recipient list: ${JSON.stringify(message.to)}`);
  }
  const replyTo =
    message.replyTo !== undefined && isValidAddress(message.replyTo.trim())
      ? message.replyTo.trim()
      : undefined;
  const headers = message.headers
    ? Object.fromEntries(
        Object.entries(message.headers).map(([name, value]) => [name, singleLine(value)]),
      )
    : undefined;
  return {
    ...message,
    from: singleLine(from),
    subject: singleLine(message.subject),
    replyTo,
    ...(headers ? { headers } : {}),
  };
}
