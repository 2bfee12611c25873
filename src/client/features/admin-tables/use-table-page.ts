import { useEffect, useState } from 'react';
import type { TablePage } from '../../../shared/admin/table-api';
import { PAGE_SIZE } from '../../../shared/admin/table-config';
import type { TableApi } from './table-api-client';

/** The index of the last page for `count` rows (0 when there are none). */
export function lastPageIndex(count: number): number {
  return Math.max(0, Math.ceil(count / PAGE_SIZE) - 1);
}

type Answer = { key: string; data?: TablePage; error?: string };

/**
 * One page of a table, fetched again whenever the page changes or `reload` is called. While
 * a fetch runs, the previous page stays available as `data` (with `loading` set).
 */
export function useTablePage(api: TableApi, table: string, uiTableName: string) {
  const [page, setPageState] = useState(0);
  const [version, setVersion] = useState(0);
  const [answer, setAnswer] = useState<Answer>({ key: '' });
  const key = `${page}:${version}`;

  useEffect(() => {
    let current = true;
    api.listRows(table, page).then(
      (data) => {
        if (!current) return;
        // A delete can leave the page past the end: go to the new last page instead.
        const last = lastPageIndex(data.count);
        if (page > last) setPageState(last);
        setAnswer({ key, data });
      },
      (error: unknown) => {
        if (!current) return;
        console.error(`Failed to fetch data for ${uiTableName}`, error);
        setAnswer({ key, error: error instanceof Error ? error.message : String(error) });
      },
    );
    return () => {
      current = false;
    };
  }, [api, table, uiTableName, page, key]);

  return {
    page,
    /** Goes to a page, kept between the first and the last. */
    setPage: (next: number) =>
      setPageState(Math.min(Math.max(0, next), lastPageIndex(answer.data?.count ?? 0))),
    reload: () => setVersion((value) => value + 1),
    loading: answer.key !== key,
    data: answer.data,
    error: answer.error,
  };
}
