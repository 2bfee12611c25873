import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type { BroadcastMessage, Sender } from './broadcast-email';

/** Subscribers added to a broadcast's recipients per statement. */
export const AUDIENCE_BATCH = 5_000;

/** Scheduled broadcasts whose time has come start sending (their audience is taken then). */
export async function startScheduled(db: Kysely<Database>): Promise<number> {
  const started = await sql`
    update broadcasts set status = 'sending', started_at = now(), updated_at = now()
    where kind = 'broadcast' and status = 'scheduled' and scheduled_at <= now()`.execute(db);
  return Number(started.numAffectedRows ?? 0);
}

/**
 * Adds the next batch of a started broadcast's audience to its recipients: confirmed
 * subscribers (confirmed by the time it started), without buyers when it excludes them, in
 * subscriber id order from where the last batch stopped. One INSERT … SELECT, ON CONFLICT DO
 * NOTHING and the broadcast row locked with SKIP LOCKED: two senders never work on one
 * broadcast's snapshot at once, and a crash halfway resumes at the next batch. True when it
 * added a batch (more may follow).
 */
export async function snapshotAudience(
  db: Kysely<Database>,
  batch = AUDIENCE_BATCH,
): Promise<boolean> {
  const took = await db.transaction().execute(async (trx) => {
    const broadcast = await sql<{ id: number; audience_after: number; exclude_buyers: boolean }>`
      select id, audience_after, exclude_buyers from broadcasts
      where kind = 'broadcast' and status in ('sending', 'paused') and audience_done_at is null
      order by id limit 1
      for update skip locked`.execute(trx);
    const row = broadcast.rows[0];
    if (!row) return undefined;
    const { rows } = await sql<{ done: boolean }>`
      with picked as (
        select s.id from list_subscribers s, broadcasts b
        where b.id = ${row.id} and s.status = 'confirmed' and s.id > ${row.audience_after}
          and coalesce(s.confirmed_at, s.created_at) <= b.started_at
          and (not b.exclude_buyers or not exists (
            select 1 from orders o where lower(o.email) = lower(s.email) and o.status = 'paid'))
        order by s.id
        limit ${batch}),
      added as (
        insert into broadcast_recipients (broadcast_id, subscriber_id)
        select ${row.id}, id from picked
        on conflict (broadcast_id, subscriber_id) do nothing)
      update broadcasts set
        audience_after = coalesce((select max(id) from picked), audience_after),
        audience_done_at = case when (select count(*) from picked) < ${batch} then now() end
      where id = ${row.id}
      returning audience_done_at is not null as done`.execute(trx);
    return { first: Number(row.audience_after) === 0, done: rows[0]!.done };
  });
  if (!took) return false;
  // The claims' plan reads the due rows in index order only if the planner knows they are many:
  // statistics from before a bulk snapshot (autovacuum analyzes a minute or more later) made it
  // sort every due row, 150 ms a claim at 100,000. So the first and the last batch refresh them.
  if (took.first || took.done) await sql`analyze broadcast_recipients`.execute(db);
  return true;
}

/** Broadcasts whose whole audience is in and has nothing left to send are `sent`. */
export async function finishSent(db: Kysely<Database>): Promise<number> {
  const finished = await sql`
    update broadcasts b set status = 'sent', finished_at = now(), updated_at = now()
    where b.kind = 'broadcast' and b.status = 'sending' and b.audience_done_at is not null
      and not exists (
        select 1 from broadcast_recipients r where r.broadcast_id = b.id and r.status = 'pending')`.execute(
    db,
  );
  return Number(finished.numAffectedRows ?? 0);
}

/** The sender's footer of the live store version. */
export async function readSender(db: Kysely<Database>): Promise<Sender | undefined> {
  const row = await sql<{ sender: Sender | null }>`
    select content -> 'sender' as sender from store_versions order by version desc limit 1`.execute(
    db,
  );
  return row.rows[0]?.sender ?? undefined;
}

/** What a broadcast or sequence step says. */
export async function readMessages(
  db: Kysely<Database>,
  ids: number[],
): Promise<Map<number, BroadcastMessage>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('broadcasts')
    .select(['id', 'slug', 'subject', 'preheader', 'html'])
    .where('id', 'in', ids)
    .execute();
  return new Map(rows.map((row) => [row.id, row]));
}
