const short: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'short' };

/**
 * A stored time as the owner reads it, in the browser's locale and time zone: date and time
 * to the second, or `'short'` (a medium date, hours and minutes) where a table is narrow.
 * No time is '—'; a value that is not a time is shown as it is.
 */
export function formatDate(
  value: string | number | null,
  style: 'full' | 'short' = 'full',
): string {
  if (value === null) return '—';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return String(value);
  return style === 'short' ? date.toLocaleString(undefined, short) : date.toLocaleString();
}
