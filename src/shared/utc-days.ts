/** Days as the insights count them: UTC dates written YYYY-MM-DD. */

const DAY_MS = 24 * 60 * 60 * 1000;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The UTC date of an instant, today's by default. */
export function utcDay(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/** Milliseconds of a YYYY-MM-DD at UTC midnight; NaN for anything that is not a real date. */
export function dayStart(date: string): number {
  if (!ISO_DATE.test(date)) return Number.NaN;
  const time = Date.parse(`${date}T00:00:00Z`);
  return utcDay(new Date(time)) === date ? time : Number.NaN;
}

export function addDays(date: string, days: number): string {
  return utcDay(new Date(dayStart(date) + days * DAY_MS));
}

/** How many days a range holds, both ends counted. */
export function rangeDays({ from, to }: { from: string; to: string }): number {
  return Math.round((dayStart(to) - dayStart(from)) / DAY_MS) + 1;
}
