import { INSIGHTS_DEFAULT_DAYS, INSIGHTS_MAX_DAYS } from '../../../shared/insights/insights-api';
import { addDays, dayStart, rangeDays } from '../../../shared/utc-days';

/** A range of UTC days as YYYY-MM-DD, both ends included. */
export type InsightsRange = { from: string; to: string };

/** The quick ranges the picker offers: the last N days, today included. */
export const quickRangeDays = [7, 30, 90] as const;

/** The last `days` days, ending `today`. */
export function lastDays(days: number, today: string): InsightsRange {
  return { from: addDays(today, -(days - 1)), to: today };
}

/** Why the server would refuse the range, or null: checked before asking it. */
export function rangeProblem(range: InsightsRange): string | null {
  if (Number.isNaN(dayStart(range.from))) return 'Enter a start date.';
  if (Number.isNaN(dayStart(range.to))) return 'Enter an end date.';
  if (range.from > range.to) return 'The start date must not be after the end date.';
  if (rangeDays(range) > INSIGHTS_MAX_DAYS) {
    return `Choose at most ${INSIGHTS_MAX_DAYS} days.`;
  }
  return null;
}

/**
 * The range in the admin page's address (`?from=…&to=…`), so a reload or the back button
 * brings it back; without one, the INSIGHTS_DEFAULT_DAYS ending today, as the server's default.
 */
export function readRange(search: string, today: string): InsightsRange {
  const params = new URLSearchParams(search);
  const fallback = lastDays(INSIGHTS_DEFAULT_DAYS, today);
  return { from: params.get('from') ?? fallback.from, to: params.get('to') ?? fallback.to };
}

/** `search` with the range replaced (other keys kept). */
export function writeRange(search: string, range: InsightsRange): string {
  const params = new URLSearchParams(search);
  params.set('from', range.from);
  params.set('to', range.to);
  return `?${params.toString()}`;
}
