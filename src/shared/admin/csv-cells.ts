import Papa from 'papaparse';
import type { FieldConfig, TableConfig, TableRow } from './table-config';

/**
 * The CSV cell rules (SPEC.md §3 "CSV export"), one implementation for the page export in the
 * browser and "Export all" on the server. Each side brings its own way of reading rich text
 * as plain text (the browser parses it in an inert document; the server has no DOM).
 */
export type RichTextToPlain = (html: string) => string;

/**
 * Cells a spreadsheet would run as a formula: a lead =, +, -, @, tab, CR, LF or NUL.
 * papaparse prefixes a matching cell with ' (and quotes it). Its own default pattern misses
 * LF and NUL leads, and any multi-line cell because it also requires `.*$`.
 */
export const FORMULA_LEAD = /^[=+\-@\t\r\n\0]/;

/** SPEC.md §3: the table's display name with spaces replaced by underscores. */
export function csvFileName(config: TableConfig): string {
  return `${config.ui_table_name.replaceAll(' ', '_')}.csv`;
}

/** Every non-id field, in configuration order. */
function csvFields(config: TableConfig): FieldConfig[] {
  return config.field_list.filter((field) => field.type !== 'id');
}

function csvCell(field: FieldConfig, value: unknown, plain: RichTextToPlain): string | number {
  if (value === null || value === undefined) return '';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'number') return value;
  if (typeof value === 'object') return JSON.stringify(value);
  const text = String(value);
  if (field.type === 'rich_text') return plain(text);
  if (field.type === 'timestamp') {
    const date = new Date(text);
    return Number.isNaN(date.getTime()) ? text : date.toISOString();
  }
  return text;
}

/** The header line: each non-id field's display name. */
export function csvHeader(config: TableConfig): string {
  return Papa.unparse(
    { fields: csvFields(config).map((field) => field.ui_name), data: [] },
    {
      escapeFormulae: FORMULA_LEAD,
    },
  ).replace(/\r\n$/, '');
}

/** The lines of `rows`, without a header, joined by CRLF ('' for no rows). */
export function csvRows(config: TableConfig, rows: TableRow[], plain: RichTextToPlain): string {
  const fields = csvFields(config);
  return Papa.unparse(
    rows.map((row) => fields.map((field) => csvCell(field, row[field.db_name], plain))),
    { escapeFormulae: FORMULA_LEAD },
  );
}

/** SPEC.md §3 "CSV export": every non-id field, headed by its display name, for `rows`. */
export function tableToCsv(config: TableConfig, rows: TableRow[], plain: RichTextToPlain): string {
  const lines = csvRows(config, rows, plain);
  return lines === '' ? csvHeader(config) : `${csvHeader(config)}\r\n${lines}`;
}
