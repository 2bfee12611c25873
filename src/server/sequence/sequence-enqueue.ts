import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type { PeriodicTask } from '../periodic/periodic-work';

/**
 * How long before a step was added (or the sequence last switched on) a subscriber's day for it
 * may lie and still be mailed: a day, so that nobody misses a step by a run's timing, while
 * nobody whose day passed long before hears of it.
 */
export const LATE_STEP_GRACE = '1 day';

/**
 * Enqueues each step of the follow-up sequence that has come due, once per subscriber: one
 * `broadcast_recipients` row (unique step × subscriber, so two runs at once, or one after a
 * crash, add nothing twice); the list sender sends it like a broadcast's row.
 *
 * A step is due for a confirmed subscriber whose sequence has not ended at confirmed_at +
 * delay_days. The rule for a step added later (or a sequence switched on later): it goes to a
 * subscriber only if that day is at most LATE_STEP_GRACE before the step was added and the
 * sequence last switched on; whoever passed it before that never gets it. Days missed while
 * no instance ran are made up (the rule does not depend on when the run happens).
 *
 * The subscribers read are locked FOR SHARE, so an order or unsubscribe ending their sequence
 * (sequence-end.ts) either commits first and is seen here, or waits for this commit and then
 * skips the rows added here. Returns the number of rows added.
 */
export async function enqueueDueSteps(db: Kysely<Database>): Promise<number> {
  const { rows } = await sql<{ added: number }>`
    with due as (
      select b.id as broadcast_id, s.id as subscriber_id
      from list_sequence q
      join broadcasts b on b.kind = 'sequence' and b.status = 'sending'
      join list_subscribers s
        on s.status = 'confirmed' and s.sequence_ended_at is null
        and s.confirmed_at <= now() - make_interval(days => b.delay_days)
        and s.confirmed_at >= greatest(b.created_at, q.active_since)
          - ${LATE_STEP_GRACE}::interval - make_interval(days => b.delay_days)
      where q.active
        -- A paid order however it came (sequence-end.ts records the end as it is paid).
        and not exists (
          select 1 from orders o where lower(o.email) = lower(s.email) and o.status = 'paid')
        and not exists (
          select 1 from broadcast_recipients r
          where r.broadcast_id = b.id and r.subscriber_id = s.id)
      for share of s
    ), added as (
      insert into broadcast_recipients (broadcast_id, subscriber_id)
      select broadcast_id, subscriber_id from due
      on conflict (broadcast_id, subscriber_id) do nothing
      returning 1
    )
    select count(*)::int as added from added`.execute(db);
  return rows[0]?.added ?? 0;
}

/** The periodic work's task (src/server/periodic-tasks.ts). */
export const sequenceSteps: PeriodicTask = {
  name: 'enqueue the follow-up sequence steps that have come due',
  async run(trx) {
    await enqueueDueSteps(trx);
  },
};
