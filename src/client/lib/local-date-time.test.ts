import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromLocalInput, toLocalInput } from './local-date-time';

// A zone with daylight saving time: clocks go 02:00 → 03:00 on 30 March 2025 and
// 03:00 → 02:00 on 26 October 2025.
const zone = 'Europe/Berlin';
const previousZone = process.env.TZ;

beforeAll(() => {
  process.env.TZ = zone;
});
afterAll(() => {
  if (previousZone === undefined) delete process.env.TZ;
  else process.env.TZ = previousZone;
});

describe('datetime-local conversion (admin local time ↔ UTC ISO)', () => {
  it('runs in the non-UTC zone it claims', () => {
    expect(new Date('2025-01-15T12:00:00Z').getTimezoneOffset()).toBe(-60);
    expect(new Date('2025-07-15T12:00:00Z').getTimezoneOffset()).toBe(-120);
  });

  it('shows a stored timestamp as local wall-clock time, cut to minutes', () => {
    expect(toLocalInput('2025-01-15T12:34:56.789Z')).toBe('2025-01-15T13:34');
    expect(toLocalInput('2025-07-15T12:34:00Z')).toBe('2025-07-15T14:34');
    expect(toLocalInput('2025-07-15T14:34:00+02:00')).toBe('2025-07-15T14:34');
    expect(toLocalInput('2025-12-31T23:30:00Z')).toBe('2026-01-01T00:30');
  });

  it('shows nothing for an empty or unreadable value', () => {
    expect(toLocalInput(null)).toBe('');
    expect(toLocalInput(undefined)).toBe('');
    expect(toLocalInput('')).toBe('');
    expect(toLocalInput('not a date')).toBe('');
  });

  it('turns an input value back into a UTC ISO string', () => {
    expect(fromLocalInput('2025-01-15T13:34')).toBe('2025-01-15T12:34:00.000Z');
    expect(fromLocalInput('2025-07-15T14:34')).toBe('2025-07-15T12:34:00.000Z');
    expect(fromLocalInput('2026-01-01T00:30')).toBe('2025-12-31T23:30:00.000Z');
    expect(fromLocalInput('')).toBeNull();
    expect(fromLocalInput('15/01/2025 13:34')).toBeNull();
  });

  it('uses the offset in force on each side of the spring DST change', () => {
    expect(toLocalInput('2025-03-30T00:59:00Z')).toBe('2025-03-30T01:59');
    expect(toLocalInput('2025-03-30T01:00:00Z')).toBe('2025-03-30T03:00');
    expect(fromLocalInput('2025-03-30T01:59')).toBe('2025-03-30T00:59:00.000Z');
    expect(fromLocalInput('2025-03-30T03:00')).toBe('2025-03-30T01:00:00.000Z');
    // 02:30 never happens that night: it moves forward by the hour skipped.
    expect(fromLocalInput('2025-03-30T02:30')).toBe('2025-03-30T01:30:00.000Z');
  });

  it('uses the offset in force on each side of the autumn DST change', () => {
    expect(toLocalInput('2025-10-26T00:30:00Z')).toBe('2025-10-26T02:30');
    expect(toLocalInput('2025-10-26T01:30:00Z')).toBe('2025-10-26T02:30');
    expect(toLocalInput('2025-10-26T02:00:00Z')).toBe('2025-10-26T03:00');
    expect(fromLocalInput('2025-10-26T03:00')).toBe('2025-10-26T02:00:00.000Z');
    expect(fromLocalInput('2025-10-26T01:59')).toBe('2025-10-25T23:59:00.000Z');
  });
});
