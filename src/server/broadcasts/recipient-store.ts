import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { fromNow } from '../mail/delivery-store';

/** A claimed message of a broadcast or sequence step to one subscriber, ready to render. */
export type ClaimedRecipient = {
  id: number;
  broadcast_id: number;
  subscriber_id: number;
  attempts: number;
  email: string;
  name: string;
};

/**
 * Claims up to `limit` due messages of broadcasts that are sending (a sequence step's row is
 * always `sending`) for `leaseMs`, in one statement: `FOR UPDATE SKIP LOCKED`, so two senders
 * never claim the same row and a dead sender's claim expires. A due row whose subscriber is no
 * longer `confirmed` (unsubscribed, bounced, complained) is marked `skipped` in that same
 * statement instead of being claimed: after an unsubscribe commits, no new claim mails them.
 */
export async function claimRecipients(
  db: Kysely<Database>,
  limit: number,
  leaseMs: number,
): Promise<ClaimedRecipient[]> {
  if (limit <= 0) return [];
  const claimed = await sql<ClaimedRecipient>`
    with due as (
      select r.id, s.status = 'confirmed' as deliverable, s.email, s.name
      from broadcast_recipients r
      join broadcasts b on b.id = r.broadcast_id
      join list_subscribers s on s.id = r.subscriber_id
      where r.status = 'pending' and r.next_attempt_at <= now()
        and (r.locked_until is null or r.locked_until <= now())
        and b.status = 'sending'
      order by r.next_attempt_at, r.id
      limit ${limit}
      for update of r skip locked),
    skipped as (
      update broadcast_recipients r set status = 'skipped', locked_until = null
      from due where r.id = due.id and not due.deliverable
      returning r.id)
    update broadcast_recipients r
    set attempts = r.attempts + 1, locked_until = ${fromNow(leaseMs)}
    from due
    where r.id = due.id and due.deliverable
    returning r.id, r.broadcast_id, r.subscriber_id, r.attempts, due.email, due.name`.execute(db);
  return claimed.rows;
}

/** Renews the claims of rows still being worked on, so no one else claims them meanwhile. */
export async function renewRecipientClaims(
  db: Kysely<Database>,
  rows: readonly Pick<ClaimedRecipient, 'id'>[],
  leaseMs: number,
): Promise<void> {
  if (rows.length === 0) return;
  await sql`
    update broadcast_recipients set locked_until = ${fromNow(leaseMs)}
    where id in (${sql.join(rows.map((row) => row.id))})
      and status = 'pending' and locked_until is not null`.execute(db);
}

/** Gives back claims that were never tried (the sender is stopping): due again at once. */
export async function releaseRecipients(
  db: Kysely<Database>,
  rows: readonly Pick<ClaimedRecipient, 'id'>[],
): Promise<void> {
  if (rows.length === 0) return;
  await sql`
    update broadcast_recipients set attempts = attempts - 1, locked_until = null
    where id in (${sql.join(rows.map((row) => row.id))}) and status = 'pending'`.execute(db);
}

/** Marks messages sent once the mail server accepted them: one statement for a burst. */
export async function markRecipientsSent(
  db: Kysely<Database>,
  rows: readonly Pick<ClaimedRecipient, 'id'>[],
): Promise<void> {
  if (rows.length === 0) return;
  await sql`
    update broadcast_recipients
    set status = 'sent', sent_at = now(), locked_until = null, last_error = null
    where id in (${sql.join(rows.map((row) => row.id))}) and status = 'pending'`.execute(db);
}

/**
 * Records a failed attempt: `bounced` when the server refused the address for good (the
 * subscriber becomes bounced too, by the caller), else the next attempt after the delay for
 * this attempt number, or `failed` after the last one.
 */
export async function markRecipientFailed(
  db: Kysely<Database>,
  row: Pick<ClaimedRecipient, 'id' | 'attempts'>,
  error: string,
  retryDelaysMs: number[] | 'bounced',
): Promise<'pending' | 'failed' | 'bounced'> {
  const lastError = error.slice(0, 1000);
  const delay = retryDelaysMs === 'bounced' ? undefined : retryDelaysMs[row.attempts - 1];
  if (delay === undefined) {
    const status = retryDelaysMs === 'bounced' ? 'bounced' : 'failed';
    await sql`
      update broadcast_recipients
      set status = ${status}, locked_until = null, last_error = ${lastError}
      where id = ${row.id} and status = 'pending'`.execute(db);
    return status;
  }
  await sql`
    update broadcast_recipients
    set locked_until = null, last_error = ${lastError}, next_attempt_at = ${fromNow(delay)}
    where id = ${row.id} and status = 'pending'`.execute(db);
  return 'pending';
}
