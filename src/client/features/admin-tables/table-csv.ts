import { unparse } from 'papaparse';
import type { FieldConfig, TableConfig, TableRow } from '../../../shared/admin/table-config';
import { richTextToPlain } from './rich-text-plain';

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

function csvCell(field: FieldConfig, value: unknown): string | number {
  if (value === null || value === undefined) return '';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'number') return value;
  if (typeof value === 'object') return JSON.stringify(value);
  const text = String(value);
  if (field.type === 'rich_text') return richTextToPlain(text);
  if (field.type === 'timestamp') {
    const date = new Date(text);
    return Number.isNaN(date.getTime()) ? text : date.toISOString();
  }
  return text;
}

/** SPEC.md §3 "CSV export": every non-id field, headed by its display name, for `rows`. */
export function tableToCsv(config: TableConfig, rows: TableRow[]): string {
  const fields = config.field_list.filter((field) => field.type !== 'id');
  return unparse(
    {
      fields: fields.map((field) => field.ui_name),
      data: rows.map((row) => fields.map((field) => csvCell(field, row[field.db_name]))),
    },
    { escapeFormulae: FORMULA_LEAD },
  );
}
