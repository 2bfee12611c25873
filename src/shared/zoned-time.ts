/**
 * "Dec 1, 2026, 6:00 PM EST": a moment as a person reads it, in `timeZone` (default: the
 * reader's own), its zone named. Not dateStyle/timeStyle: Intl refuses them together with
 * timeZoneName.
 */
export function zonedTime(iso: string, timeZone?: string): string {
  return new Date(iso).toLocaleString('en-US', {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZoneName: 'short',
    ...(timeZone ? { timeZone } : {}),
  });
}
