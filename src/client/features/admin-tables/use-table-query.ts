import { useCallback, useMemo } from 'react';
import type { TableQuery } from '../../../shared/admin/table-api';
import { navigate, parseHashLocation, useLocation } from '../../routing/router';
import { readTableQuery, writeTableQuery } from './table-query-url';

/**
 * A panel's query, read from the address and changed by going to a new address (a history
 * entry of its own, so Back returns to the previous search).
 */
export function useTableQuery(table: string) {
  const location = useLocation();
  const query = useMemo(() => readTableQuery(location.search, table), [location.search, table]);
  const setQuery = useCallback(
    (next: TableQuery) => {
      // The current address, not the rendered one: two panels may change it in one tick.
      const { pathname, search } = parseHashLocation(window.location.hash);
      navigate(`${pathname}${writeTableQuery(search, table, next)}`);
    },
    [table],
  );
  return { query, setQuery };
}
