import * as z from 'zod/mini';

/**
 * Broadcasts and the follow-up sequence (DESIGN.md "The mailing list"): the owner writes to the
 * confirmed subscribers; every message is one durable row, sent once, at a rate the provider
 * allows, and measured in verified purchases, not opens.
 *
 * Admin (behind the admin guard; writes need the PUBLIC_URL origin and are in the activity log):
 * - GET    ADMIN_BROADCASTS_PATH                      → 200 { rows: AdminBroadcast[] } newest first
 * - POST   ADMIN_BROADCASTS_PATH  BroadcastDraft      → 201 { id } (a draft)
 * - GET    adminBroadcastPath(id)                     → 200 AdminBroadcast (progress and results)
 * - PUT    adminBroadcastPath(id) BroadcastDraft      → 200 AdminBroadcast (draft or scheduled only)
 * - DELETE adminBroadcastPath(id)                     → 204 (draft or scheduled only)
 * - POST   adminBroadcastPath(id) + '/send' { at? }   → 200 AdminBroadcast: now, or at a time
 *          (status `scheduled`); 409 { message: SENDER_MISSING_MESSAGE } (the app's error shape) until the store's
 *          sender name and postal address are set
 * - POST   adminBroadcastPath(id) + '/pause' | '/resume' | '/cancel' → 200 AdminBroadcast
 * - POST   ADMIN_BROADCASTS_PATH + '/test' BroadcastDraft → 200 { sentTo } (to the signed-in
 *          admin, marked as a test in the subject; refused like /send without a sender)
 * - POST   ADMIN_BROADCASTS_PATH + '/preview' BroadcastDraft → 200 EmailPreview (as a
 *          subscriber named "Alex" would get it)
 * - POST   ADMIN_BROADCAST_PREVIEW_DOCUMENT_PATH  form { draft: JSON BroadcastDraft } → 200
 *          text/html: the same email as a document of its own, with a policy of its own, for
 *          the preview frames (a srcdoc frame would take the admin page's policy, which refuses
 *          the email's inline styles)
 *
 * - GET    ADMIN_SEQUENCE_PATH                        → 200 AdminSequence
 * - PUT    ADMIN_SEQUENCE_PATH  SequenceDraft         → 200 AdminSequence
 * - POST   ADMIN_SEQUENCE_PATH + '/test' SequenceStepDraft → 200 { sentTo }
 * - POST   ADMIN_SEQUENCE_PATH + '/preview' SequenceStepDraft → 200 EmailPreview
 * - POST   ADMIN_SEQUENCE_PREVIEW_DOCUMENT_PATH  form { draft: JSON SequenceStepDraft } → 200
 *          text/html, as for a broadcast
 */

export const ADMIN_BROADCASTS_PATH = '/api/admin/broadcasts';
export const adminBroadcastPath = (id: number) => `${ADMIN_BROADCASTS_PATH}/${id}`;
export const ADMIN_SEQUENCE_PATH = '/api/admin/sequence';
export const ADMIN_BROADCAST_PREVIEW_DOCUMENT_PATH = `${ADMIN_BROADCASTS_PATH}/preview.html`;
export const ADMIN_SEQUENCE_PREVIEW_DOCUMENT_PATH = `${ADMIN_SEQUENCE_PATH}/preview.html`;
/** The form field the preview documents take the draft in, as JSON. */
export const PREVIEW_DRAFT_FIELD = 'draft';

export const SENDER_MISSING_MESSAGE =
  'Add your name and postal address under Store → Sender before sending: every list email shows them.';

export const broadcastStatuses = [
  'draft',
  'scheduled',
  'sending',
  'paused',
  'cancelled',
  'sent',
] as const;
export type BroadcastStatus = (typeof broadcastStatuses)[number];

/** Days after a message in which a recipient's verified purchase counts for it. */
export const PURCHASE_WINDOW_DAYS = 7;
/** The largest body (HTML, before sanitising) a broadcast or step takes. */
export const EMAIL_HTML_MAX = 200_000;

const subject = z
  .string()
  .check(
    z.trim(),
    z.minLength(1, { error: 'The subject cannot be empty.' }),
    z.maxLength(200, { error: 'The subject must be at most 200 characters.' }),
  );
const preheader = z
  .string()
  .check(z.trim(), z.maxLength(200, { error: 'The preview text must be at most 200 characters.' }));
const html = z
  .string()
  .check(
    z.minLength(1, { error: 'Write the email first.' }),
    z.maxLength(EMAIL_HTML_MAX, { error: 'The email is too long.' }),
  );

export const broadcastDraftSchema = z.object({
  subject,
  preheader: z._default(preheader, ''),
  /** Rich text from the admin's editor; the server sanitises it as it does the store's. */
  html,
  /** Leave out subscribers who already bought (a verified paid order for their address). */
  excludeBuyers: z._default(z.boolean(), false),
});
export type BroadcastDraft = z.input<typeof broadcastDraftSchema>;

export const broadcastSendSchema = z.object({
  /** ISO time to start at; absent: now. */
  at: z.optional(
    z.string().check(
      z.refine((value) => !Number.isNaN(Date.parse(value)), {
        error: 'Choose a real date and time.',
      }),
    ),
  ),
});

/** Counts of one message to many: a broadcast or a sequence step. */
export type SendResults = {
  /** Rows made for it (a broadcast's audience snapshot; a step's enqueued sends). */
  recipients: number;
  sent: number;
  failed: number;
  bounced: number;
  /** Not yet sent nor given up. */
  remaining: number;
  /** Recipients who unsubscribed after it was sent to them. */
  unsubscribed: number;
  /** Verified paid orders by its recipients within PURCHASE_WINDOW_DAYS of it. */
  purchases: number;
  /** Their amount, in cents. */
  revenue: number;
};

export type AdminBroadcast = SendResults & {
  id: number;
  /** Its utm_campaign in the links it carries. */
  slug: string;
  subject: string;
  preheader: string;
  html: string;
  excludeBuyers: boolean;
  status: BroadcastStatus;
  scheduledAt: string | null;
  startedAt: string | null;
  finishedAt: string | null;
  createdAt: string;
  /** Messages a second over the last minute while sending, else null. */
  ratePerSecond: number | null;
  /** When the remaining ones should be sent at that rate, else null. */
  estimatedEnd: string | null;
};

export type EmailPreview = { subject: string; html: string; text: string };

export const sequenceStepDraftSchema = z.object({
  /** Its id once saved; a step without one is new. */
  id: z.optional(z.int()),
  /** Days after the subscriber confirmed (0: right after the welcome email). */
  delayDays: z
    .int()
    .check(
      z.minimum(0, { error: 'The delay cannot be negative.' }),
      z.maximum(365, { error: 'The delay must be at most 365 days.' }),
    ),
  subject,
  preheader: z._default(preheader, ''),
  html,
});
export type SequenceStepDraft = z.input<typeof sequenceStepDraftSchema>;

export const sequenceDraftSchema = z.object({
  /** Off: no new step is enqueued (what is queued still goes). */
  active: z.boolean(),
  steps: z
    .array(sequenceStepDraftSchema)
    .check(z.maxLength(20, { error: 'A sequence has at most 20 steps.' })),
});
export type SequenceDraft = z.input<typeof sequenceDraftSchema>;

export type AdminSequenceStep = SendResults & {
  id: number;
  position: number;
  delayDays: number;
  subject: string;
  preheader: string;
  html: string;
};

export type AdminSequence = { active: boolean; steps: AdminSequenceStep[] };
