import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { fromNow } from '../mail/delivery-store';
import { permitsOf, permitsTaken, permitsUsed, type ListRate, type Permits } from './list-rate';

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
 * Claims, in one statement and one commit, as many due messages of sending broadcasts (a
 * sequence step's row is always `sending`) as `wanted` and the rate's permits allow (see
 * list-rate.ts; only claimed messages use a permit), for `leaseMs`, and stores the unsubscribe
 * token hash of each claimed message: the claimed row numbered n gets `tokenHashes[n - 1]`.
 * `FOR UPDATE SKIP LOCKED`, so two senders never claim the same row and a dead sender's claim
 * expires. A due row whose subscriber is no longer `confirmed` (unsubscribed, bounced,
 * complained) is marked `skipped` instead of being claimed: after an unsubscribe commits, no
 * new claim mails them.
 */
export async function claimRecipients(
  db: Kysely<Database>,
  claim: Claim,
): Promise<{ claimed: (ClaimedRecipient & { n: number })[]; permits: Permits }> {
  const { rows } = await claimStatement(claim).execute(db);
  const row = rows[0]!;
  return { claimed: row.claimed, permits: permitsOf(row) };
}

export type Claim = { wanted: number; rate: ListRate; leaseMs: number; tokenHashes: string[] };

/** The claim's one statement (its plan is tested: it reads the due rows in index order). */
export function claimStatement({ wanted, rate, leaseMs, tokenHashes }: Claim) {
  return sql<Parameters<typeof permitsOf>[0] & { claimed: (ClaimedRecipient & { n: number })[] }>`
    with ${permitsTaken(wanted, rate)},
    due as (
      select r.id, r.next_attempt_at, s.status = 'confirmed' as deliverable, s.email, s.name
      from broadcast_recipients r
      join list_subscribers s on s.id = r.subscriber_id
      where r.status = 'pending' and r.next_attempt_at <= now()
        and (r.locked_until is null or r.locked_until <= now())
        -- Not a join: its estimate (the rows of one broadcast among all) could choose sorting
        -- every due row over reading the due index in order.
        and r.broadcast_id = any(array(select id from broadcasts where status = 'sending'))
      order by r.next_attempt_at, r.id
      limit ${wanted}
      for update of r skip locked),
    skipped as (
      update broadcast_recipients r set status = 'skipped', locked_until = null
      from due where r.id = due.id and not due.deliverable),
    chosen as (
      select id, email, name, row_number() over (order by next_attempt_at, id)::int as n
      from due where deliverable),
    claimed as (
      update broadcast_recipients r
      set attempts = r.attempts + 1, locked_until = ${fromNow(leaseMs)}
      from chosen
      where r.id = chosen.id and chosen.n <= (select granted from permits)
      returning r.id, r.broadcast_id, r.subscriber_id, r.attempts, chosen.email, chosen.name,
        chosen.n),
    tokens as (
      insert into list_tokens (token_hash, subscriber_id, purpose)
      select hash, claimed.subscriber_id, 'unsubscribe'
      from claimed
      join unnest(${tokenHashes}::text[]) with ordinality as t(hash, n) on t.n = claimed.n),
    ${permitsUsed()}
    select permits.*,
      (select coalesce(json_agg(claimed order by n), '[]') from claimed) as claimed
    from permits`;
}

/**
 * Checks claimed rows again before they are sent: a row whose subscriber is no longer
 * `confirmed`, or that was skipped meanwhile (an unsubscribe ends the sequence's steps), is
 * marked `skipped`. Returns the ids still to send.
 */
export async function stillDeliverable(
  db: Kysely<Database>,
  rows: readonly Pick<ClaimedRecipient, 'id'>[],
): Promise<Set<number>> {
  if (rows.length === 0) return new Set();
  const { rows: kept } = await sql<{ id: number }>`
    with checked as (
      select r.id, r.status = 'pending' and s.status = 'confirmed' as deliverable
      from broadcast_recipients r
      join list_subscribers s on s.id = r.subscriber_id
      where r.id = any(${rows.map((row) => row.id)}::bigint[])),
    skipped as (
      update broadcast_recipients r set status = 'skipped', locked_until = null
      from checked where r.id = checked.id and not checked.deliverable and r.status = 'pending')
    select id from checked where deliverable`.execute(db);
  return new Set(kept.map((row) => Number(row.id)));
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
