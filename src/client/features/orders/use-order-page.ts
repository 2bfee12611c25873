import { useCallback } from 'react';
import type { AdminOrder } from '../../../shared/orders/order-api';
import { useFetched } from '../../lib/use-fetched';
import { orderAdmin, type OrderQuery } from './order-admin-client';

/**
 * The orders for a query, fetched again on `reload`. While a fetch runs the last page stays
 * available as `data` (with `loading` set); `replace` puts an order the server answered with
 * into the page without fetching it again.
 */
export function useOrderPage(query: OrderQuery) {
  const { page, status, q } = query;
  const { data, loading, error, reload, update } = useFetched(`${status}:${page}:${q}`, () =>
    orderAdmin.list({ page, status, q }),
  );
  const replace = useCallback(
    (order: AdminOrder) =>
      update((last) =>
        last
          ? { ...last, orders: last.orders.map((shown) => (shown.id === order.id ? order : shown)) }
          : last,
      ),
    [update],
  );
  return { data, loading, error, reload, replace };
}
