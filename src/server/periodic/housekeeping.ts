import { sql } from 'kysely';
import { authLimits } from '../auth/auth-limits';
import { sendThrottle } from '../auth/send-throttle';
import type { Database } from '../db/schema';
import type { PeriodicTask } from './periodic-work';

/** better-auth's per-IP request counters are kept a day: far longer than any of its windows. */
const RATE_LIMIT_ROWS_KEPT_MS = 24 * 60 * 60 * 1000;

/**
 * Deletes what has expired: sign-in codes past their expiry, code-email throttle windows
 * older than the longest window, and stale per-IP request counters.
 */
export const housekeeping: PeriodicTask = {
  name: 'delete expired sign-in codes and throttles',
  async run(trx) {
    await sql`delete from auth_verification where "expiresAt" < now()`.execute(trx);
    await sendThrottle<Database>(trx).prune(
      Math.max(authLimits.sendsPerEmail.window, authLimits.sendsPerIp.window),
    );
    await sql`
      delete from auth_rate_limit
      where "lastRequest" < ${Date.now() - RATE_LIMIT_ROWS_KEPT_MS}`.execute(trx);
  },
};
