import {
  tableBulkDeletePath,
  tableQueryString,
  tableRowPath,
  tableRowsPath,
  type RowValues,
  type SavedRow,
  type BulkDeleted,
  type TablePage,
  type TableQuery,
} from '../../../shared/admin/table-api';
import type { TableRow } from '../../../shared/admin/table-config';
import { api } from '../../lib/api-client';

/** The admin table calls of SPEC.md §7, over the contract in shared/admin/table-api.ts. */
export type TableApi = {
  listRows(table: string, page: number, query?: TableQuery): Promise<TablePage>;
  createRow(table: string, values: RowValues): Promise<TableRow>;
  updateRow(table: string, id: number, values: RowValues): Promise<TableRow>;
  deleteRow(table: string, id: number): Promise<void>;
  /** How many of these rows existed and are gone. */
  bulkDelete(table: string, ids: number[]): Promise<number>;
};

/** The admin table calls; a 401 goes to the API client's session listeners. */
export const tableApi: TableApi = {
  listRows: (table, page, query = {}) =>
    api.get<TablePage>(`${tableRowsPath(table)}${tableQueryString(query, page)}`),
  createRow: async (table, values) => (await api.post<SavedRow>(tableRowsPath(table), values)).row,
  updateRow: async (table, id, values) =>
    (await api.put<SavedRow>(tableRowPath(table, id), values)).row,
  deleteRow: async (table, id) => {
    await api.delete<null>(tableRowPath(table, id));
  },
  bulkDelete: async (table, ids) =>
    (await api.post<BulkDeleted>(tableBulkDeletePath(table), { ids })).deleted,
};
