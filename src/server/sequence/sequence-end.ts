import { sql, type Kysely } from 'kysely';
import type { Database, SequenceEndReason } from '../db/schema';

/** Whose sequence ends: one subscriber, or the subscriber with an address (any case). */
export type SequenceMember = { subscriberId: number } | { email: string };

/**
 * Ends a subscriber's follow-up sequence for good, inside the caller's transaction (the order
 * that was paid, the unsubscribe): the end is recorded on the subscriber with its reason, and
 * the steps queued for them and not yet sent are skipped. A sequence that had already ended
 * keeps its first end; the queued steps are skipped all the same. True when a subscriber
 * matched.
 */
export async function endSequence(
  trx: Kysely<Database>,
  member: SequenceMember,
  reason: SequenceEndReason,
): Promise<boolean> {
  const who =
    'subscriberId' in member
      ? sql<boolean>`s.id = ${member.subscriberId}`
      : sql<boolean>`lower(s.email) = ${member.email.trim().toLowerCase()}`;
  // Two statements: the update locks the subscriber's row, so an enqueuing run that read it
  // (FOR SHARE, sequence-enqueue.ts) has committed before the second statement, whose own
  // snapshot then sees the rows that run added; a run after this commit sees the end.
  const ended = await sql<{ id: number }>`
    update list_subscribers s
    set sequence_ended_at = coalesce(s.sequence_ended_at, now()),
      sequence_end_reason = coalesce(s.sequence_end_reason, ${reason})
    where ${who}
    returning s.id`.execute(trx);
  const ids = ended.rows.map((row) => Number(row.id));
  if (ids.length === 0) return false;
  await sql`
    update broadcast_recipients r
    set status = 'skipped', last_error = ${`sequence ended: ${reason}`}
    from broadcasts b
    where r.subscriber_id = any(${ids}::bigint[]) and r.status = 'pending'
      and b.id = r.broadcast_id and b.kind = 'sequence'`.execute(trx);
  return true;
}

/**
 * A subscriber confirming (or confirming again) who has a verified paid order already: their
 * sequence ends at once, with the reason `purchase`. True when it did.
 */
export async function endSequenceOfBuyer(
  trx: Kysely<Database>,
  subscriberId: number,
): Promise<boolean> {
  const bought = await sql<{ id: number }>`
    select s.id from list_subscribers s
    where s.id = ${subscriberId} and s.sequence_ended_at is null
      and exists (
        select 1 from orders o where lower(o.email) = lower(s.email) and o.status = 'paid')`.execute(
    trx,
  );
  if (bought.rows.length === 0) return false;
  return endSequence(trx, { subscriberId }, 'purchase');
}
