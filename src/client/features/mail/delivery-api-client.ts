import {
  deliveriesPath,
  deliveryResendPath,
  recordDeliveriesPath,
  type DeliveryEntry,
  type DeliveryFilter,
  type DeliveryPage,
  type RecordDeliveries,
  type ResentDelivery,
} from '../../../shared/mail/delivery-api';
import { requestJson, watchUnauthorized } from '../../lib/request-json';

/** The admin delivery log calls (shared/mail/delivery-api.ts). */
export type DeliveryApi = {
  list(state: DeliveryFilter, page: number): Promise<DeliveryPage>;
  forRecords(table: string, ids: number[]): Promise<Record<string, DeliveryEntry>>;
  resend(id: number): Promise<DeliveryEntry>;
};

/** `onUnauthorized` runs on a 401 (the session ended); the call still rejects. */
export function createDeliveryApi({ onUnauthorized }: { onUnauthorized(): void }): DeliveryApi {
  const guarded = <T>(request: Promise<T>) => watchUnauthorized(request, onUnauthorized);
  return {
    list: (state, page) =>
      guarded(requestJson<DeliveryPage>(`${deliveriesPath}?state=${state}&page=${page}`)),
    forRecords: async (table, ids) =>
      (
        await guarded(
          requestJson<RecordDeliveries>(`${recordDeliveriesPath(table)}?ids=${ids.join(',')}`),
        )
      ).deliveries,
    resend: async (id) =>
      (
        await guarded(
          requestJson<ResentDelivery>(deliveryResendPath(id), {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: '{}',
          }),
        )
      ).delivery,
  };
}
