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
import { requestJson, sendJson, watchUnauthorized } from '../../lib/request-json';

/** The admin table calls of SPEC.md §7, over the contract in shared/admin/table-api.ts. */
export type TableApi = {
  listRows(table: string, page: number, query?: TableQuery): Promise<TablePage>;
  createRow(table: string, values: RowValues): Promise<TableRow>;
  updateRow(table: string, id: number, values: RowValues): Promise<TableRow>;
  deleteRow(table: string, id: number): Promise<void>;
  /** How many of these rows existed and are gone. */
  bulkDelete(table: string, ids: number[]): Promise<number>;
};

/**
 * The admin API client. `onUnauthorized` runs when the server no longer accepts the session
 * (401), so the admin area can send the owner back to sign in; the call still rejects.
 */
export function createTableApi({ onUnauthorized }: { onUnauthorized(): void }): TableApi {
  const guarded = <T>(request: Promise<T>) => watchUnauthorized(request, onUnauthorized);

  return {
    listRows: (table, page, query = {}) =>
      guarded(requestJson<TablePage>(`${tableRowsPath(table)}${tableQueryString(query, page)}`)),
    createRow: async (table, values) =>
      (await guarded(sendJson<SavedRow>('POST', tableRowsPath(table), values))).row,
    updateRow: async (table, id, values) =>
      (await guarded(sendJson<SavedRow>('PUT', tableRowPath(table, id), values))).row,
    deleteRow: async (table, id) => {
      await guarded(requestJson<null>(tableRowPath(table, id), { method: 'DELETE' }));
    },
    bulkDelete: async (table, ids) =>
      (await guarded(sendJson<BulkDeleted>('POST', tableBulkDeletePath(table), { ids }))).deleted,
  };
}
