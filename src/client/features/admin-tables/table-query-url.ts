import type { SortOrder, TableFilter, TableQuery } from '../../../shared/admin/table-api';

/**
 * A panel's search, sort and filter live in the admin page's address, under keys named for
 * its table (`form_submissions.q=ann`), so a reload or the back button brings them back and
 * each panel keeps its own.
 */
const key = (table: string, name: string) => `${table}.${name}`;

export function readTableQuery(search: string, table: string): TableQuery {
  const params = new URLSearchParams(search);
  const query: TableQuery = {};
  const q = params.get(key(table, 'q'));
  if (q) query.q = q;
  const sort = params.get(key(table, 'sort'));
  if (sort) query.sort = sort;
  const order = params.get(key(table, 'order'));
  if (order === 'asc' || order === 'desc') query.order = order as SortOrder;
  const filter = params.get(key(table, 'filter'));
  if (filter) {
    try {
      const parsed: unknown = JSON.parse(filter);
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
        query.filter = parsed as TableFilter;
      }
    } catch {
      // A hand-edited address: show everything rather than fail.
    }
  }
  return query;
}

/** `search` with this table's query replaced by `query` (other panels' keys kept). */
export function writeTableQuery(search: string, table: string, query: TableQuery): string {
  const params = new URLSearchParams(search);
  for (const name of ['q', 'sort', 'order', 'filter']) params.delete(key(table, name));
  if (query.q) params.set(key(table, 'q'), query.q);
  if (query.sort) params.set(key(table, 'sort'), query.sort);
  if (query.order) params.set(key(table, 'order'), query.order);
  if (query.filter && Object.keys(query.filter).length > 0) {
    params.set(key(table, 'filter'), JSON.stringify(query.filter));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** The same query, whatever order its keys were written in. */
export function queryKey(query: TableQuery): string {
  const filter = Object.entries(query.filter ?? {}).sort(([a], [b]) => a.localeCompare(b));
  return JSON.stringify([query.q ?? '', query.sort ?? '', query.order ?? '', filter]);
}
