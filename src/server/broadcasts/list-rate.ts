import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema';

export type ListRate = {
  /** Messages a second at most, across every instance. */
  perSecond: number;
  /** Messages an hour at most, across every instance; 0 is no cap. */
  perHour: number;
};

export type Permits = {
  granted: number;
  /** When nothing was granted: milliseconds until a window opens again (database clock). */
  waitMs: number;
  /** The windows the permits count in, to give unused ones back. */
  windows: { second: Date; hour: Date };
};

/**
 * Takes up to `wanted` permits to send list mail now, shared by every instance through
 * mail_rate_windows: one statement that locks both window rows (instances take turns), starts
 * a new window when the clock moved on, and grants what both the second's and the hour's
 * caps leave.
 */
export async function takePermits(
  db: Kysely<Database>,
  wanted: number,
  rate: ListRate,
): Promise<Permits> {
  const result = await sql<{
    granted: number;
    second: Date;
    hour: Date;
    second_ms: number;
    hour_ms: number;
    hour_full: boolean;
  }>`
    with cur as (
      select scope, date_trunc(scope, now()) as start,
        case when window_start = date_trunc(scope, now()) then used else 0 end as used,
        case scope when 'second' then ${rate.perSecond}::int else ${rate.perHour}::int end as cap
      from mail_rate_windows
      order by scope
      for update),
    room as (
      select greatest(0, least(${wanted}::int,
        min(case when cap = 0 then ${wanted}::int else cap - used end)))::int as granted,
        bool_or(scope = 'hour' and cap > 0 and used >= cap) as hour_full
      from cur),
    taken as (
      update mail_rate_windows m set window_start = cur.start, used = cur.used + room.granted
      from cur, room where m.scope = cur.scope
      returning m.scope)
    select room.granted, room.hour_full,
      (select start from cur where scope = 'second') as second,
      (select start from cur where scope = 'hour') as hour,
      extract(epoch from date_trunc('second', now()) + interval '1 second' - now()) * 1000
        as second_ms,
      extract(epoch from date_trunc('hour', now()) + interval '1 hour' - now()) * 1000 as hour_ms,
      (select count(*) from taken) as rows
    from room`.execute(db);
  const row = result.rows[0]!;
  return {
    granted: row.granted,
    waitMs:
      row.granted > 0 ? 0 : Math.ceil(Number(row.hour_full ? row.hour_ms : row.second_ms)) + 1,
    windows: { second: row.second, hour: row.hour },
  };
}

/** Gives back permits taken but not used (fewer messages were due), in the windows they came from. */
export async function returnPermits(
  db: Kysely<Database>,
  unused: number,
  windows: Permits['windows'],
): Promise<void> {
  if (unused <= 0) return;
  await sql`
    update mail_rate_windows set used = greatest(0, used - ${unused}::int)
    where (scope = 'second' and window_start = ${windows.second})
       or (scope = 'hour' and window_start = ${windows.hour})`.execute(db);
}
