/**
 * The admin's delivery log (DESIGN.md "Mail delivery"), behind the admin guard. Errors answer
 * `{ error, message }`.
 *
 * - GET  deliveriesPath?state=S&page=N        → 200 DeliveryPage (newest first)
 * - GET  recordDeliveriesPath(table)?ids=1,2  → 200 RecordDeliveries (each record's latest)
 * - POST deliveryResendPath(id)               → 201 { delivery } (a new delivery, sent soon)
 */
export const deliveriesPath = '/api/admin/deliveries';

export function recordDeliveriesPath(table: string): string {
  return `${deliveriesPath}/records/${encodeURIComponent(table)}`;
}

export function deliveryResendPath(id: number): string {
  return `${deliveriesPath}/${id}/resend`;
}

/**
 * What the owner sees: `sending` is queued or in its first attempt, `retrying` has failed at
 * least once and will be tried again at nextAttemptAt, `failed` ran out of retries.
 */
export const deliveryStates = ['sending', 'retrying', 'sent', 'failed'] as const;
export type DeliveryState = (typeof deliveryStates)[number];

export const deliveryFilters = ['all', ...deliveryStates] as const;
export type DeliveryFilter = (typeof deliveryFilters)[number];

export const DELIVERY_PAGE_SIZE = 25;

export type DeliveryEntry = {
  id: number;
  sourceTable: string;
  sourceId: number;
  recipient: string;
  subject: string;
  state: DeliveryState;
  attempts: number;
  /** ISO 8601; for a delivery still to be tried. */
  nextAttemptAt: string | null;
  lastError: string | null;
  sentAt: string | null;
  failedAt: string | null;
  createdAt: string;
};

/**
 * An email still pending this long after it was queued is late: the mail server refuses or
 * does not answer, or no instance is sending. /readyz (mail.late) and the admin say so.
 */
export const MAIL_LATE_SECONDS = 300;

/** The queue at a glance: what waits, how long the oldest has waited, whether that is late. */
export type MailQueueHealth = {
  pending: number;
  oldestPendingSeconds: number;
  late: boolean;
};

export type DeliveryPage = {
  entries: DeliveryEntry[];
  /** Deliveries matching the filter. */
  count: number;
  /** Every state's count, for the filter's labels. */
  counts: Record<DeliveryState, number>;
  page: number;
  pageSize: number;
  queue: MailQueueHealth;
};

export type RecordDeliveries = { deliveries: Record<string, DeliveryEntry> };

export type ResentDelivery = { delivery: DeliveryEntry };
