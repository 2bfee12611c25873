import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FieldConfig, TableRow } from '../../../shared/admin/table-config';
import { fromLocalInput } from '../../lib/local-date-time';
import { firstMissingField, initialFormValues, toRowValues } from './row-form-values';

const previousZone = process.env.TZ;
beforeAll(() => {
  process.env.TZ = 'America/New_York';
});
afterAll(() => {
  if (previousZone === undefined) delete process.env.TZ;
  else process.env.TZ = previousZone;
});

const field = (db_name: string, type: string, required = false): FieldConfig => ({
  db_name,
  ui_name: db_name.replaceAll('_', ' '),
  type,
  required,
});

const fields = [
  field('name', 'text', true),
  field('age', 'number'),
  field('email_sent', 'checkbox', true),
  field('email_sent_at', 'timestamp'),
  field('notes', 'rich_text'),
  field('website', 'web_url'),
];

const row: TableRow = {
  id: 7,
  name: 'Ada',
  age: 36,
  email_sent: true,
  email_sent_at: '2025-11-02T06:30:45.123Z',
  notes: '<p>Called back</p>',
  website: null,
};

describe('row form values', () => {
  it('starts blank, with tick boxes off, when adding', () => {
    expect(initialFormValues(fields)).toEqual({
      name: '',
      age: '',
      email_sent: false,
      email_sent_at: '',
      notes: '',
      website: '',
    });
  });

  it("starts from the row's values when editing, timestamps in local time", () => {
    expect(initialFormValues(fields, row)).toEqual({
      name: 'Ada',
      age: '36',
      email_sent: true,
      // 06:30 UTC is 01:30 EST: the second 01:30 of the night New York's clocks go back.
      email_sent_at: '2025-11-02T01:30',
      notes: '<p>Called back</p>',
      website: '',
    });
  });

  it('saves typed values: numbers, booleans, UTC timestamps, null for empty', () => {
    const values = {
      name: 'Grace',
      age: '41.5',
      email_sent: false,
      email_sent_at: '2025-03-09T03:15',
      notes: '<p><br></p>',
      website: '   ',
    };
    expect(toRowValues(fields, values)).toEqual({
      name: 'Grace',
      age: 41.5,
      email_sent: false,
      email_sent_at: '2025-03-09T07:15:00.000Z',
      notes: null,
      website: null,
    });
    expect(toRowValues(fields, { ...values, age: '', email_sent_at: '' })).toMatchObject({
      age: null,
      email_sent_at: null,
    });
  });

  it('keeps a timestamp the admin did not change exactly as stored', () => {
    const values = initialFormValues(fields, row);
    // Read back, 01:30 would be the first one (EDT), an hour earlier, and lose its seconds.
    expect(fromLocalInput(values.email_sent_at as string)).toBe('2025-11-02T05:30:00.000Z');
    expect(toRowValues(fields, values, row).email_sent_at).toBe('2025-11-02T06:30:45.123Z');
    expect(toRowValues(fields, { ...values, email_sent_at: '2025-11-02T01:31' }, row)).toEqual(
      expect.objectContaining({ email_sent_at: '2025-11-02T05:31:00.000Z' }),
    );
  });

  it('finds the first required field left empty, never a tick box', () => {
    const blank = initialFormValues(fields);
    expect(firstMissingField(fields, blank)?.db_name).toBe('name');
    expect(firstMissingField(fields, { ...blank, name: '  ' })?.db_name).toBe('name');
    expect(firstMissingField(fields, { ...blank, name: 'Ada' })).toBeUndefined();

    const requiredNotes = [field('notes', 'rich_text', true), field('when', 'timestamp', true)];
    expect(firstMissingField(requiredNotes, { notes: '<p><br></p>', when: '' })?.db_name).toBe(
      'notes',
    );
    expect(
      firstMissingField(requiredNotes, { notes: '<p><img src="data:image/png;base64,AA"></p>' })
        ?.db_name,
    ).toBe('when');
  });
});
