import type {
  CellValue,
  FieldConfig,
  TableConfig,
  TableRow,
} from '../../../shared/admin/table-config';
import type { StoredRow } from './dynamic-tables';

/**
 * A stored value as the admin API carries it: timestamps as ISO 8601 in UTC, ids and numbers
 * as JSON numbers (node-postgres returns numeric columns as strings).
 */
function toCell(field: FieldConfig, value: unknown): CellValue {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'string' && (field.type === 'number' || field.type === 'id')) {
    return Number(value);
  }
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
    return value;
  }
  return JSON.stringify(value);
}

/** The configured columns of a stored row, in configuration order. */
export function toTableRow(table: TableConfig, stored: StoredRow): TableRow {
  const row: Record<string, CellValue> = {};
  for (const field of table.field_list) row[field.db_name] = toCell(field, stored[field.db_name]);
  return row as TableRow;
}
