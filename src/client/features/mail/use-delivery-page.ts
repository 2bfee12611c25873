import type { DeliveryFilter } from '../../../shared/mail/delivery-api';
import { useFetched } from '../../lib/use-fetched';
import type { DeliveryApi } from './delivery-api-client';

/**
 * The log page for a filter and page number, fetched again on `reload`. While a fetch runs,
 * the last page stays available as `data` (with `loading` set).
 */
export function useDeliveryPage(api: DeliveryApi, state: DeliveryFilter, page: number) {
  const { data, loading, error, reload } = useFetched(`${state}:${page}`, () =>
    api.list(state, page),
  );
  return { data, loading, error, reload };
}
