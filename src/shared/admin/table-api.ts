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
  /** Exact number of rows in the table that match the query. */
  count: number;
  page: number;
  pageSize: number;
};

export type SavedRow = { row: TableRow };

/**
 * Which rows a list or an export covers (DESIGN.md "Admin tools"): `q` a case-insensitive
 * substring of name, email or message; `sort` a configured column and `order` its direction
 * (id descending without them); `filter` configured columns and what each must be.
 */
export type TableQuery = {
  q?: string;
  sort?: string;
  order?: SortOrder;
  filter?: TableFilter;
};

export type SortOrder = 'asc' | 'desc';

/**
 * Column → condition: a value the column must equal (null: is empty), or, for a timestamp,
 * a range of days or instants, both ends included (`from`/`to` as YYYY-MM-DD in UTC or ISO
 * 8601 with a zone).
 */
export type TableFilter = Record<string, FilterCondition>;
export type FilterCondition = string | number | boolean | null | DateRange;
export type DateRange = { from?: string; to?: string };

/** The longest search and filter a list accepts; longer ones answer 400. */
export const MAX_SEARCH_LENGTH = 200;
export const MAX_FILTER_LENGTH = 2000;

/** The query string of `query` (and `page`), for the list and the export. */
export function tableQueryString(query: TableQuery, page?: number): string {
  const params = new URLSearchParams();
  if (page !== undefined) params.set('page', String(page));
  if (query.q) params.set('q', query.q);
  if (query.sort) params.set('sort', query.sort);
  if (query.order) params.set('order', query.order);
  if (query.filter && Object.keys(query.filter).length > 0) {
    params.set('filter', JSON.stringify(query.filter));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** GET → every matching row as CSV (text/csv, streamed), same cells as the page export. */
export function tableExportPath(table: string, query: TableQuery = {}): string {
  return `/api/admin/tables/${encodeURIComponent(table)}/export${tableQueryString(query)}`;
}

/** POST { ids } → 200 { deleted }: how many of those rows existed and are gone. */
export function tableBulkDeletePath(table: string): string {
  return `/api/admin/tables/${encodeURIComponent(table)}/bulk-delete`;
}

export type BulkDeleteBody = { ids: number[] };
export type BulkDeleted = { deleted: number };

/** At most this many ids in one bulk delete. */
export const MAX_BULK_DELETE = 1000;
