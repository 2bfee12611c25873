import { parse } from 'papaparse';
import { describe, expect, it } from 'vitest';
import { tableConfigSchema, type TableRow } from '../../../shared/admin/table-config';
import formSubmissions from '../../../shared/table-configurations/form-submissions.json';
import termsFeedback from '../../../shared/table-configurations/terms-of-service-feedback.json';
import { csvFileName, tableToCsv } from './table-csv';

const config = tableConfigSchema.parse(formSubmissions);

const row = (values: Partial<TableRow>): TableRow => ({
  id: 1,
  name: 'Ada',
  email: 'ada@example.com',
  message: null,
  purchase_intent: true,
  email_sent: false,
  email_sent_at: null,
  notes: null,
  created_at: '2025-05-01T09:01:00+02:00',
  updated_at: '2025-05-01T07:02:03.456Z',
  ...values,
});

function cells(csv: string): string[][] {
  return parse<string[]>(csv, { skipEmptyLines: false }).data;
}

describe('CSV export (SPEC.md §3)', () => {
  it('names the file after the table, spaces as underscores', () => {
    expect(csvFileName(config)).toBe('Form_Submissions.csv');
    expect(csvFileName(tableConfigSchema.parse(termsFeedback))).toBe(
      'Terms_of_Service_Feedback.csv',
    );
  });

  it('heads the columns with the display names of every non-id field, rich text included', () => {
    const [header] = cells(tableToCsv(config, []));
    expect(header).toEqual([
      'Name',
      'Email',
      'Message',
      'Purchase Intent',
      'Email Sent',
      'Email Sent At',
      'Notes',
      'Created At',
      'Updated At',
    ]);
  });

  it('writes one line per loaded row: Yes/No, ISO dates, empty for null', () => {
    const csv = tableToCsv(config, [row({}), row({ id: 2, name: 'Bo', purchase_intent: false })]);
    expect(csv.split('\r\n')).toEqual([
      'Name,Email,Message,Purchase Intent,Email Sent,Email Sent At,Notes,Created At,Updated At',
      'Ada,ada@example.com,,Yes,No,,,2025-05-01T07:01:00.000Z,2025-05-01T07:02:03.456Z',
      'Bo,ada@example.com,,No,No,,,2025-05-01T07:01:00.000Z,2025-05-01T07:02:03.456Z',
    ]);
  });

  it('strips rich text to plain text, one line per block, without running it', () => {
    const notes =
      '<h2>Call&nbsp;back</h2><p>Prefers <strong>email</strong>.</p><ol><li>Refund</li><li>Guide</li></ol>' +
      '<p><img src="x" onerror="window.csvHacked = true">Done<br>today</p>';
    const [, line] = cells(tableToCsv(config, [row({ notes })]));
    expect(line![6]).toBe('Call back\nPrefers email.\nRefund\nGuide\nDone\ntoday');
    expect((window as { csvHacked?: boolean }).csvHacked).toBeUndefined();
  });

  it('writes objects and arrays as JSON', () => {
    const odd = row({ message: { a: 1 } as never, name: [1, 'two'] as never });
    const [, line] = cells(tableToCsv(config, [odd]));
    expect(line!.slice(0, 3)).toEqual(['[1,"two"]', 'ada@example.com', '{"a":1}']);
  });

  it.each([
    ['=', '=HYPERLINK("http://x","y")'],
    ['+', '+1+2'],
    ['-', '-2+3'],
    ['@', '@SUM(A1)'],
    ['tab', '\t=1'],
    ['CR', '\r=1'],
    ['LF', '\n=1'],
    ['NUL', '\0=1'],
    ['= on a multi-line value', '=1+1\nsecond line'],
  ])('escapes a cell that starts with %s', (_lead, value) => {
    const csv = tableToCsv(config, [row({ name: value })]);
    const [, line] = cells(csv);
    expect(line![0]).toBe(`'${value}`);
  });

  it('leaves other text and numbers as they are', () => {
    const csv = tableToCsv(config, [row({ name: 'a=b', email: 'x-y@example.com', message: 'ok' })]);
    expect(cells(csv)[1]!.slice(0, 3)).toEqual(['a=b', 'x-y@example.com', 'ok']);
    const withNumber = tableToCsv(
      {
        ...config,
        field_list: [{ db_name: 'age', ui_name: 'Age', type: 'number', required: false }],
      },
      [{ id: 1, age: -5 }],
    );
    expect(withNumber).toBe('Age\r\n-5');
  });
});
