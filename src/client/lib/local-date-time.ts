/**
 * Converts between the API's ISO 8601 timestamps and the `datetime-local` input's value
 * (`YYYY-MM-DDTHH:mm`, minute precision), which is wall-clock time in the admin's own zone.
 */

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

/** The input value for a stored timestamp, in the browser's time zone; '' when there is none. */
export function toLocalInput(iso: string | null | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return (
    `${pad(date.getFullYear(), 4)}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}` +
    `T${pad(date.getHours())}:${pad(date.getMinutes())}`
  );
}

const LOCAL_INPUT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/;

/**
 * The UTC ISO string for an input value read as local time; null when it is not one. A time
 * that the clocks skip (the spring DST gap) moves forward by the gap, as browsers do.
 */
export function fromLocalInput(value: string): string | null {
  const parts = LOCAL_INPUT.exec(value);
  if (!parts) return null;
  const [year, month, day, hours, minutes] = parts.slice(1).map(Number) as [
    number,
    number,
    number,
    number,
    number,
  ];
  const date = new Date(year, month - 1, day, hours, minutes);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}
