import * as z from 'zod/mini';
import { STORE_PATH } from './store-api';

/**
 * Scheduled publishing of the draft (DESIGN.md "Prices and promotions"), behind the admin
 * guard; writes need the PUBLIC_URL origin and each is recorded in the activity log.
 *
 * - GET    STORE_SCHEDULE_PATH              → { schedule: StoreSchedule | null }
 * - PUT    STORE_SCHEDULE_PATH { publishAt } → StoreSchedule: the draft as it is now, published
 *                                            as the next version at `publishAt` (replacing any
 *                                            earlier schedule); 400 for a time not in the
 *                                            future or a draft that cannot be published
 * - DELETE STORE_SCHEDULE_PATH              → 204; 404 when nothing is scheduled
 */
export const STORE_SCHEDULE_PATH = `${STORE_PATH}/schedule`;

/** The furthest ahead a publish can be scheduled. */
export const MAX_SCHEDULE_DAYS = 366;

export type StoreSchedule = { publishAt: string; createdAt: string; by: string };

export const NOT_A_TIME = 'The time to publish must be a date and time with its time zone.';

/** A date and time with a zone ("2026-12-01T09:00:00Z", "…+01:00"): never the server's zone. */
const ZONED = /^(\d{4})-(\d{2})-(\d{2})T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/** A real day of a real month (Date.parse takes "02-31" as March 3rd). */
function isCalendarDay(value: string): boolean {
  const [, year, month, day] = ZONED.exec(value) ?? [];
  const days = new Date(Date.UTC(Number(year), Number(month), 0)).getUTCDate();
  return Number(month) >= 1 && Number(month) <= 12 && Number(day) >= 1 && Number(day) <= days;
}

export const scheduleBody = z.object({
  publishAt: z.string({ error: NOT_A_TIME }).check(
    z.regex(ZONED, { error: NOT_A_TIME }),
    z.refine((value) => isCalendarDay(value) && !Number.isNaN(Date.parse(value)), {
      error: NOT_A_TIME,
    }),
  ),
});

/** Why `publishAt` cannot be scheduled at `now`, or undefined when it can. */
export function scheduleTimeError(publishAt: Date, now = new Date()): string | undefined {
  if (publishAt.getTime() <= now.getTime()) return 'The time to publish must be in the future.';
  if (publishAt.getTime() - now.getTime() > MAX_SCHEDULE_DAYS * 86_400_000) {
    return `The time to publish must be within ${MAX_SCHEDULE_DAYS} days.`;
  }
  return undefined;
}
