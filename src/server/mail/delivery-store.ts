import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database, MailDelivery } from '../db/schema';
import { tableNames, type TableName } from '../../shared/tables';
import type { MailMessage } from './mail-message';

/** A claimed delivery, as the worker sends it. */
export type ClaimedDelivery = Pick<
  MailDelivery,
  'source_table' | 'recipient' | 'reply_to' | 'subject' | 'html' | 'text' | 'last_error'
> & {
  id: number;
  source_id: number;
  attempts: number;
  headers: Record<string, string> | null;
};

/** The columns of a new delivery row about one record. */
export function deliveryColumns(
  source: { table: string; id?: number },
  message: MailMessage,
): {
  source_table: string;
  recipient: string;
  reply_to: string | null;
  subject: string;
  html: string;
  text: string;
  headers: string | null;
} {
  return {
    source_table: source.table,
    recipient: message.to.join(','),
    reply_to: message.replyTo ?? null,
    subject: message.subject,
    html: message.html,
    text: message.text,
    headers: message.headers ? JSON.stringify(message.headers) : null,
  };
}

/** The message a delivery row holds, ready for the mailer. */
export function deliveryMessage(delivery: ClaimedDelivery): MailMessage {
  return {
    to: delivery.recipient.split(','),
    subject: delivery.subject,
    html: delivery.html,
    text: delivery.text,
    ...(delivery.reply_to ? { replyTo: delivery.reply_to } : {}),
    ...(delivery.headers ? { headers: delivery.headers } : {}),
  };
}

/** now() plus some milliseconds, in the database's clock (every instance shares it). */
export function fromNow(ms: number): RawBuilder<Date> {
  return sql<Date>`now() + (${ms}::double precision * interval '1 millisecond')`;
}

/**
 * Claims up to `limit` due rows for `leaseMs`: one short statement, `FOR UPDATE SKIP LOCKED`,
 * so two instances never claim the same row, and a claim whose holder died expires.
 */
export async function claimDue(
  db: Kysely<Database>,
  limit: number,
  leaseMs: number,
): Promise<ClaimedDelivery[]> {
  const claimed = await sql<ClaimedDelivery>`
    update mail_deliveries set attempts = attempts + 1, locked_until = ${fromNow(leaseMs)}
    where id in (
      select id from mail_deliveries
      where status = 'pending' and next_attempt_at <= now()
        and (locked_until is null or locked_until <= now())
      order by next_attempt_at
      limit ${limit}
      for update skip locked)
    returning id, source_table, source_id, recipient, reply_to, subject, html, text, attempts,
      last_error, headers`.execute(db);
  return claimed.rows;
}

/** Renews the claims of rows still being worked on, so no one else claims them meanwhile. */
export async function renewClaims(
  db: Kysely<Database>,
  deliveries: readonly Pick<ClaimedDelivery, 'id'>[],
  leaseMs: number,
): Promise<void> {
  if (deliveries.length === 0) return;
  await sql`
    update mail_deliveries set locked_until = ${fromNow(leaseMs)}
    where id in (${sql.join(deliveries.map((delivery) => delivery.id))})
      and status = 'pending' and locked_until is not null`.execute(db);
}

/** Gives back claims that were never tried (the worker is stopping): due again at once. */
export async function releaseClaims(
  db: Kysely<Database>,
  deliveries: readonly Pick<ClaimedDelivery, 'id'>[],
): Promise<void> {
  if (deliveries.length === 0) return;
  await sql`
    update mail_deliveries set attempts = attempts - 1, locked_until = null
    where id in (${sql.join(deliveries.map((delivery) => delivery.id))}) and status = 'pending'`.execute(
    db,
  );
}

function isRecordTable(table: string): table is TableName {
  return (tableNames as readonly string[]).includes(table);
}

/**
 * Marks deliveries sent and, in the same statement, their records' email_sent true. A row that
 * is no longer pending (sent by someone else, or reset by the owner) is left as it is. The
 * worker records a burst of sends at once: one statement, however many there are.
 */
export async function markSent(
  db: Kysely<Database>,
  deliveries: readonly Pick<ClaimedDelivery, 'id' | 'source_table'>[],
): Promise<void> {
  if (deliveries.length === 0) return;
  const ids = deliveries.map((delivery) => delivery.id);
  const tables = [...new Set(deliveries.map((delivery) => delivery.source_table))].filter(
    isRecordTable,
  );
  const records = tables.map(
    (table, index) => sql`, ${sql.raw(`record_${index}`)} as (
      update ${sql.table(table)}
      set email_sent = true, email_sent_at = now(), updated_at = now()
      where id in (select source_id from sent where source_table = ${table}))`,
  );
  await sql`
    with sent as (
      update mail_deliveries
      set status = 'sent', sent_at = now(), locked_until = null, last_error = null
      where id in (${sql.join(ids)}) and status = 'pending'
      returning source_table, source_id)
    ${sql.join(records, sql``)}
    select count(*) from sent`.execute(db);
}

/**
 * Records a failed attempt: the next one after the delay for this attempt number, or, after
 * the last delay, status failed (kept for the owner to see and resend).
 */
export async function markFailed(
  db: Kysely<Database>,
  delivery: Pick<ClaimedDelivery, 'id' | 'attempts'>,
  error: string,
  retryDelaysMs: number[],
): Promise<'pending' | 'failed'> {
  const delay = retryDelaysMs[delivery.attempts - 1];
  const lastError = error.slice(0, 1000);
  if (delay === undefined) {
    await sql`
      update mail_deliveries
      set status = 'failed', failed_at = now(), locked_until = null, last_error = ${lastError}
      where id = ${delivery.id} and status = 'pending'`.execute(db);
    return 'failed';
  }
  await sql`
    update mail_deliveries
    set locked_until = null, last_error = ${lastError}, next_attempt_at = ${fromNow(delay)}
    where id = ${delivery.id} and status = 'pending'`.execute(db);
  return 'pending';
}

/** The rows that queue emails about a record, for an insert of the caller's own. */
export function deliveryRows(source: { table: string; id: number }, messages: MailMessage[]) {
  return messages.map((message) => ({ ...deliveryColumns(source, message), source_id: source.id }));
}

/** Queues one email about a record; the caller wakes the worker once its transaction commits. */
export async function queueDelivery(
  db: Kysely<Database>,
  source: { table: string; id: number },
  message: MailMessage,
): Promise<void> {
  await db
    .insertInto('mail_deliveries')
    .values(deliveryRows(source, [message]))
    .execute();
}
