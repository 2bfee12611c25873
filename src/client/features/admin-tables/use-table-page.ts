import { useState } from 'react';
import type { TableQuery } from '../../../shared/admin/table-api';
import { PAGE_SIZE } from '../../../shared/admin/table-config';
import { lastPageIndex } from '../../components/pager';
import type { TableApi } from './table-api-client';
import { queryKey } from './table-query-url';
import { useFetched } from '../../lib/use-fetched';

/** Every row; one object, so an effect that depends on the query does not run every render. */
const NO_QUERY: TableQuery = {};

/**
 * One page of the rows `query` matches, fetched again whenever the page or the query changes
 * or `reload` is called; a new query starts at the first page. While a fetch runs, the
 * previous page stays available as `data` (with `loading` set).
 */
export function useTablePage(
  api: TableApi,
  table: string,
  uiTableName: string,
  query: TableQuery = NO_QUERY,
) {
  const [pageOf, setPageState] = useState({ page: 0, query: queryKey(query) });
  const search = queryKey(query);
  const page = pageOf.query === search ? pageOf.page : 0;
  const fetched = useFetched(`${table}:${page}:${search}`, (isCurrent) =>
    api.listRows(table, page, query).then(
      (data) => {
        // A delete can leave the page past the end: go to the new last page instead.
        const last = lastPageIndex(data.count, PAGE_SIZE);
        if (isCurrent() && page > last) setPageState({ page: last, query: search });
        return data;
      },
      (error: unknown) => {
        if (isCurrent()) console.error(`Failed to fetch data for ${uiTableName}`, error);
        throw error;
      },
    ),
  );
  // A failed fetch shows no rows (and nothing to export) until one succeeds.
  const data = fetched.error ? undefined : fetched.data;

  return {
    page,
    /** Goes to a page, kept between the first and the last. */
    setPage: (next: number) =>
      setPageState({
        page: Math.min(Math.max(0, next), lastPageIndex(data?.count ?? 0, PAGE_SIZE)),
        query: search,
      }),
    reload: fetched.reload,
    loading: fetched.loading,
    data,
    error: fetched.error || undefined,
  };
}
