import * as z from 'zod/mini';

/**
 * The mail provider's webhook (registered only with MAIL_WEBHOOK_SECRET; without it the path
 * answers 404): bounces and complaints of mail sent through the HTTP mail API.
 *
 * - POST MAIL_EVENTS_PATH, JSON body MailEvents, header MAIL_SIGNATURE_HEADER:
 *   `sha256=` + hex HMAC-SHA256 of the exact body bytes under MAIL_WEBHOOK_SECRET
 *   → 200 { received: n } | 401 unsigned or a bad signature | 400 a body that is not MailEvents
 *   (errors in the one shape `{ error, message }`).
 *
 * A permanent bounce marks the address's list subscriber `bounced`, a complaint `complained`
 * (each with a consent event); a transient bounce, or an address not on the list, changes
 * nothing. Receipts, download links and codes still go to such an address.
 */
export const MAIL_EVENTS_PATH = '/api/mail/events';
export const MAIL_SIGNATURE_HEADER = 'x-mail-signature';

const mailEvent = z.object({
  type: z.enum(['bounce', 'complaint']),
  recipient: z.string().check(z.minLength(3), z.maxLength(320)),
  /** Only for a bounce: a `permanent` one (a hard bounce) counts; `transient` is retried. */
  bounceType: z.optional(z.enum(['permanent', 'transient'])),
});
export type MailEvent = z.infer<typeof mailEvent>;

/** One event, or a batch of up to 100. */
export const mailEventsSchema = z.union([
  mailEvent,
  z.object({ events: z.array(mailEvent).check(z.minLength(1), z.maxLength(100)) }),
]);
export type MailEvents = z.infer<typeof mailEventsSchema>;
