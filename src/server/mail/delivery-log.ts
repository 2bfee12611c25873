import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema';
import {
  DELIVERY_PAGE_SIZE,
  MAIL_LATE_SECONDS,
  type DeliveryEntry,
  type DeliveryFilter,
  type DeliveryPage,
  type DeliveryState,
} from '../../shared/mail/delivery-api';

const listed = [
  'id',
  'source_table',
  'source_id',
  'recipient',
  'subject',
  'status',
  'attempts',
  'next_attempt_at',
  'locked_until',
  'last_error',
  'sent_at',
  'failed_at',
  'created_at',
] as const;

/** The state the owner reads from the stored columns. */
export function stateOf(row: { status: string; last_error: string | null }): DeliveryState {
  if (row.status === 'sent') return 'sent';
  if (row.status === 'failed') return 'failed';
  return row.last_error === null ? 'sending' : 'retrying';
}

const iso = (value: Date | string | null) =>
  value === null ? null : new Date(value).toISOString();

export function toEntry(row: {
  id: number;
  source_table: string;
  source_id: number;
  recipient: string;
  subject: string;
  status: string;
  attempts: number;
  next_attempt_at: Date;
  last_error: string | null;
  sent_at: Date | null;
  failed_at: Date | null;
  created_at: Date;
}): DeliveryEntry {
  const state = stateOf(row);
  return {
    id: row.id,
    sourceTable: row.source_table,
    sourceId: row.source_id,
    recipient: row.recipient,
    subject: row.subject,
    state,
    attempts: row.attempts,
    nextAttemptAt: state === 'retrying' || state === 'sending' ? iso(row.next_attempt_at) : null,
    lastError: row.last_error,
    sentAt: iso(row.sent_at),
    failedAt: iso(row.failed_at),
    createdAt: iso(row.created_at)!,
  };
}

/** Rows in a state, as SQL conditions on the stored columns. */
function inState(state: DeliveryFilter) {
  switch (state) {
    case 'all':
      return sql<boolean>`true`;
    case 'sending':
      return sql<boolean>`status = 'pending' and last_error is null`;
    case 'retrying':
      return sql<boolean>`status = 'pending' and last_error is not null`;
    default:
      return sql<boolean>`status = ${state}`;
  }
}

/** A page of the log, newest first, with each state's count for the filter. */
export async function listDeliveries(
  db: Kysely<Database>,
  state: DeliveryFilter,
  page: number,
): Promise<DeliveryPage> {
  const rows = await db
    .selectFrom('mail_deliveries')
    .select(listed)
    .where(inState(state))
    .orderBy('id', 'desc')
    .limit(DELIVERY_PAGE_SIZE)
    .offset(page * DELIVERY_PAGE_SIZE)
    .execute();
  const totals = await sql<{ state: DeliveryState; n: number }>`
    select case when status = 'pending'
             then case when last_error is null then 'sending' else 'retrying' end
             else status end as state,
           count(*)::int as n
    from mail_deliveries group by 1`.execute(db);
  const counts: Record<DeliveryState, number> = { sending: 0, retrying: 0, sent: 0, failed: 0 };
  for (const row of totals.rows) counts[row.state] = Number(row.n);
  const count =
    state === 'all' ? Object.values(counts).reduce((sum, n) => sum + n, 0) : counts[state];
  const { pending, oldestPendingSeconds, late } = await queueSummary(db);
  return {
    entries: rows.map(toEntry),
    count,
    counts,
    page,
    pageSize: DELIVERY_PAGE_SIZE,
    queue: { pending, oldestPendingSeconds, late },
  };
}

/** Each listed record's latest delivery. */
export async function latestForRecords(
  db: Kysely<Database>,
  table: string,
  ids: number[],
): Promise<Record<string, DeliveryEntry>> {
  if (ids.length === 0) return {};
  const rows = await db
    .selectFrom('mail_deliveries')
    .distinctOn('source_id')
    .select(listed)
    .where('source_table', '=', table)
    .where('source_id', 'in', ids)
    .orderBy('source_id')
    .orderBy('id', 'desc')
    .execute();
  return Object.fromEntries(rows.map((row) => [String(row.source_id), toEntry(row)]));
}

/**
 * Sends one email again soon. A delivery still waiting for a retry is simply made due now
 * (one row, so the scheduled retry cannot send it a second time); a sent or failed one is
 * queued again as a new delivery, and the old row stays in the log as it was. Returns the
 * delivery that will be sent, or undefined when there is no such delivery.
 */
export async function resend(db: Kysely<Database>, id: number): Promise<DeliveryEntry | undefined> {
  const columns = sql.join(listed.map((column) => sql.ref(column)));
  const due = await sql<Parameters<typeof toEntry>[0]>`
    update mail_deliveries set next_attempt_at = now()
    where id = ${id} and status = 'pending'
    returning ${columns}`.execute(db);
  if (due.rows[0]) return toEntry(due.rows[0]);
  const copied = await sql<Parameters<typeof toEntry>[0]>`
    insert into mail_deliveries (source_table, source_id, recipient, reply_to, subject, html, text)
    select source_table, source_id, recipient, reply_to, subject, html, text
    from mail_deliveries where id = ${id}
    returning ${columns}`.execute(db);
  const row = copied.rows[0];
  return row ? toEntry(row) : undefined;
}

/** For /readyz and the admin: what waits, for how long, whether that is late, what failed recently. */
export async function queueSummary(db: Kysely<Database>) {
  const { rows } = await sql<{
    pending: number;
    oldest: Date | string | null;
    failed_last_day: number;
  }>`
    select
      (select count(*)::int from mail_deliveries where status = 'pending') as pending,
      (select min(created_at) from mail_deliveries where status = 'pending') as oldest,
      (select count(*)::int from mail_deliveries
        where status = 'failed' and failed_at > now() - interval '1 day') as failed_last_day`.execute(
    db,
  );
  const row = rows[0]!;
  const oldestPendingSeconds =
    row.oldest === null
      ? 0
      : Math.max(0, Math.round((Date.now() - new Date(row.oldest).getTime()) / 1000));
  return {
    pending: Number(row.pending),
    oldestPendingSeconds,
    failedLastDay: Number(row.failed_last_day),
    // Still ready (the site answers and stores every record), but mail is not going out.
    late: oldestPendingSeconds >= MAIL_LATE_SECONDS,
  };
}
