import { useCallback, useEffect, useState } from 'react';
import type { DeliveryFilter, DeliveryPage } from '../../../shared/mail/delivery-api';
import type { DeliveryApi } from './delivery-api-client';

type Answer = { key: string; data?: DeliveryPage; error?: string };

/**
 * The log page for a filter and page number, fetched again on `reload`. While a fetch runs,
 * the last page stays available as `data` (with `loading` set).
 */
export function useDeliveryPage(api: DeliveryApi, state: DeliveryFilter, page: number) {
  const [version, setVersion] = useState(0);
  const [answer, setAnswer] = useState<Answer>({ key: '' });
  const key = `${state}:${page}:${version}`;

  useEffect(() => {
    let current = true;
    api.list(state, page).then(
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
  }, [api, state, page, key]);

  const reload = useCallback(() => setVersion((value) => value + 1), []);
  return { data: answer.data, loading: answer.key !== key, error: answer.error ?? '', reload };
}
