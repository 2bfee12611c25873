import { useEffect, useState } from 'react';
import type { TablePage, TableQuery } from '../../../shared/admin/table-api';
import { PAGE_SIZE } from '../../../shared/admin/table-config';
import { lastPageIndex } from '../../components/pager';
import type { TableApi } from './table-api-client';
import { queryKey } from './table-query-url';
import { errorMessage } from '../../../shared/error-message';

/** Every row; one object, so an effect that depends on the query does not run every render. */
const NO_QUERY: TableQuery = {};

type Answer = { key: string; data?: TablePage; error?: string };

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
  const [version, setVersion] = useState(0);
  const [answer, setAnswer] = useState<Answer>({ key: '' });
  const search = queryKey(query);
  const page = pageOf.query === search ? pageOf.page : 0;
  const key = `${page}:${version}:${search}`;

  useEffect(() => {
    let current = true;
    api.listRows(table, page, query).then(
      (data) => {
        if (!current) return;
        // A delete can leave the page past the end: go to the new last page instead.
        const last = lastPageIndex(data.count, PAGE_SIZE);
        if (page > last) setPageState({ page: last, query: search });
        setAnswer({ key, data });
      },
      (error: unknown) => {
        if (!current) return;
        console.error(`Failed to fetch data for ${uiTableName}`, error);
        setAnswer({ key, error: errorMessage(error) });
      },
    );
    return () => {
      current = false;
    };
  }, [api, table, uiTableName, page, query, search, key]);

  return {
    page,
    /** Goes to a page, kept between the first and the last. */
    setPage: (next: number) =>
      setPageState({
        page: Math.min(Math.max(0, next), lastPageIndex(answer.data?.count ?? 0, PAGE_SIZE)),
        query: search,
      }),
    reload: () => setVersion((value) => value + 1),
    loading: answer.key !== key,
    data: answer.data,
    error: answer.error,
  };
}
