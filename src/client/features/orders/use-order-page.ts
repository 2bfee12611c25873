import { useCallback, useEffect, useState } from 'react';
import type { AdminOrder, OrderPage } from '../../../shared/orders/order-api';
import { orderAdmin, type OrderQuery } from './order-admin-client';

type Answer = { key: string; data?: OrderPage; error?: string };

/**
 * The orders for a query, fetched again on `reload`. While a fetch runs the last page stays
 * available as `data` (with `loading` set); `replace` puts an order the server answered with
 * into the page without fetching it again.
 */
export function useOrderPage(query: OrderQuery) {
  const [version, setVersion] = useState(0);
  const [answer, setAnswer] = useState<Answer>({ key: '' });
  const { page, status, q } = query;
  const key = `${status}:${page}:${q}:${version}`;

  useEffect(() => {
    let current = true;
    orderAdmin.list({ page, status, q }).then(
      (data) => current && setAnswer({ key, data }),
      (failure: unknown) =>
        current &&
        setAnswer((last) => ({
          key,
          data: last.data,
          error: failure instanceof Error ? failure.message : String(failure),
        })),
    );
    return () => {
      current = false;
    };
  }, [page, status, q, key]);

  const reload = useCallback(() => setVersion((value) => value + 1), []);
  const replace = useCallback(
    (order: AdminOrder) =>
      setAnswer((last) =>
        last.data
          ? {
              ...last,
              data: {
                ...last.data,
                orders: last.data.orders.map((shown) => (shown.id === order.id ? order : shown)),
              },
            }
          : last,
      ),
    [],
  );
  return {
    data: answer.data,
    loading: answer.key !== key,
    error: answer.error ?? '',
    reload,
    replace,
  };
}
