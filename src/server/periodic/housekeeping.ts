import { sql } from 'kysely';
import { authLimits } from '../auth/auth-limits';
import { sendThrottle } from '../auth/send-throttle';
import type { Database } from '../db/schema';
import type { PeriodicTask } from './periodic-work';

/** better-auth's per-IP request counters are kept a day: far longer than any of its windows. */
const RATE_LIMIT_ROWS_KEPT_MS = 24 * 60 * 60 * 1000;

/**
 * A link past its time still explains itself ("expired") for a month, then goes; Stripe stops
 * retrying an event after three days, so its id need not be kept for a replay beyond that.
 */
const EXPIRED_LINKS_KEPT = '30 days';
const PAYMENT_EVENTS_KEPT = '90 days';

/**
 * Deletes what has expired: sign-in codes past their expiry, code-email throttle windows
 * older than the longest window, stale per-IP request counters, long-expired download links
 * and old payment event ids (a refund's id is kept while its order may still arrive).
 */
export const housekeeping: PeriodicTask = {
  name: 'delete expired sign-in codes, throttles, download links and payment events',
  async run(trx) {
    await sql`delete from auth_verification where "expiresAt" < now()`.execute(trx);
    await sendThrottle<Database>(trx).prune(
      Math.max(authLimits.sendsPerEmail.window, authLimits.sendsPerIp.window),
    );
    await sql`
      delete from auth_rate_limit
      where "lastRequest" < ${Date.now() - RATE_LIMIT_ROWS_KEPT_MS}`.execute(trx);
    await sql`
      delete from download_links
      where expires_at < now() - ${EXPIRED_LINKS_KEPT}::interval`.execute(trx);
    await sql`
      delete from payment_events
      where received_at < now() - ${PAYMENT_EVENTS_KEPT}::interval`.execute(trx);
  },
};
