import type { CellValue, TableRow } from './table-config';

/**
 * The admin table API (SPEC.md §7 "Admin table calls"), behind the admin guard. `table` is a
 * configured db_table_name; anything else answers 404. Errors answer `{ error, message }`.
 *
 * - GET    tableRowsPath(table)?page=N   → 200 TablePage (page from 0; bad page → 400)
 * - POST   tableRowsPath(table)          body RowValues → 201 { row }
 * - PUT    tableRowPath(table, id)       body RowValues → 200 { row } (404 when missing)
 * - DELETE tableRowPath(table, id)       → 204 (404 when missing)
 *
 * A save carries editable fields only (not id, created_at, updated_at); the server sets
 * updated_at, and ignores those three when a body has them. A field left out keeps the
 * database default on create and the stored value on update. Timestamps are ISO 8601 strings
 * with a time zone; checkboxes are booleans; numbers are JSON numbers; an empty optional
 * value is null. row-validation.ts holds the checks a save must pass.
 */
export function tableRowsPath(table: string): string {
  return `/api/admin/tables/${encodeURIComponent(table)}/rows`;
}

export function tableRowPath(table: string, id: number): string {
  return `${tableRowsPath(table)}/${id}`;
}

export type RowValues = Record<string, CellValue>;

export type TablePage = {
  rows: TableRow[];
  /** Exact number of rows in the table. */
  count: number;
  page: number;
  pageSize: number;
};

export type SavedRow = { row: TableRow };
