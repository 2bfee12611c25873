import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../db/schema';

export type ListRate = {
  /** Messages a second at most, across every instance. */
  perSecond: number;
  /** Messages an hour at most, across every instance; 0 is no cap. */
  perHour: number;
};

/** The claim's permits: how many it could take, and when to ask again if none. */
export type Permits = {
  granted: number;
  /** When nothing was granted: milliseconds until a window opens again (database clock). */
  waitMs: number;
};

/** Adds the two window rows if they are not there yet (once per sender, before its first permit). */
export async function ensureRateWindows(db: Kysely<Database>): Promise<void> {
  await sql`
    insert into mail_rate_windows (scope) values ('second'), ('hour')
    on conflict (scope) do nothing`.execute(db);
}

/**
 * The permit part of a claim statement, shared by every instance through mail_rate_windows:
 * CTEs `rate_windows` (both window rows, locked: instances take turns; a window the clock has
 * left counts from zero) and `permits` (`granted`: what both the second's and the hour's caps
 * leave of `wanted`; `hour_full`; `second_ms` and `hour_ms` until the next windows).
 */
export function permitsTaken(wanted: number, rate: ListRate): RawBuilder<unknown> {
  return sql`
    rate_windows as (
      select scope, date_trunc(scope, now()) as start,
        case when window_start = date_trunc(scope, now()) then used else 0 end as used,
        case scope when 'second' then ${rate.perSecond}::int else ${rate.perHour}::int end as cap
      from mail_rate_windows
      order by scope
      for update),
    permits as (
      select greatest(0, least(${wanted}::int,
          min(case when cap = 0 then ${wanted}::int else cap - used end)))::int as granted,
        coalesce(bool_or(scope = 'hour' and cap > 0 and used >= cap), false) as hour_full,
        extract(epoch from date_trunc('second', now()) + interval '1 second' - now()) * 1000
          as second_ms,
        extract(epoch from date_trunc('hour', now()) + interval '1 hour' - now()) * 1000
          as hour_ms
      from rate_windows)`;
}

/**
 * The CTE `permits_used`, that counts what the claim took (the rows of its CTE `claimed`) in
 * the windows it was granted from: only messages claimed use a permit.
 */
export function permitsUsed(): RawBuilder<unknown> {
  return sql`
    permits_used as (
      update mail_rate_windows m
      set window_start = w.start, used = w.used + (select count(*) from claimed)::int
      from rate_windows w where m.scope = w.scope)`;
}

/** The permits a claim statement's `permits` row says it had. */
export function permitsOf(row: {
  granted: number;
  hour_full: boolean;
  second_ms: number | string;
  hour_ms: number | string;
}): Permits {
  return {
    granted: row.granted,
    waitMs:
      row.granted > 0 ? 0 : Math.ceil(Number(row.hour_full ? row.hour_ms : row.second_ms)) + 1,
  };
}
