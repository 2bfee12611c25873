import { sql, type Kysely } from 'kysely';

export type ThrottleRule = { max: number; window: number };

export type ThrottleResult = { allowed: true } | { allowed: false; retryAfterSeconds: number };

type ThrottleRow = { count: number; window_started_at: Date };

/**
 * Fixed-window counters in the database (table auth_send_throttle), so every instance counts
 * together. One statement counts and reads, so concurrent requests cannot both slip through.
 */
export function sendThrottle<DB>(db: Kysely<DB>, now: () => Date = () => new Date()) {
  return {
    async hit(key: string, rule: ThrottleRule): Promise<ThrottleResult> {
      const at = now();
      const windowStart = new Date(at.getTime() - rule.window * 1000);
      const { rows } = await sql<ThrottleRow>`
        insert into auth_send_throttle as t (key, window_started_at, count)
        values (${key}, ${at}, 1)
        on conflict (key) do update set
          count = case when t.window_started_at <= ${windowStart} then 1 else t.count + 1 end,
          window_started_at = case
            when t.window_started_at <= ${windowStart} then ${at}
            else t.window_started_at
          end
        returning count, window_started_at`.execute(db);
      const row = rows[0]!;
      if (row.count <= rule.max) return { allowed: true };
      const endsAt = new Date(row.window_started_at).getTime() + rule.window * 1000;
      return {
        allowed: false,
        retryAfterSeconds: Math.max(1, Math.ceil((endsAt - at.getTime()) / 1000)),
      };
    },

    /** Drops counters whose window ended long ago. */
    async prune(longestWindowSeconds: number) {
      const before = new Date(now().getTime() - longestWindowSeconds * 1000);
      await sql`delete from auth_send_throttle where window_started_at < ${before}`.execute(db);
    },
  };
}

export type SendThrottle = ReturnType<typeof sendThrottle<unknown>>;
