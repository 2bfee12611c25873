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
import { api } from '../../lib/api-client';

/** The admin delivery log calls (shared/mail/delivery-api.ts). */
export type DeliveryApi = {
  list(state: DeliveryFilter, page: number): Promise<DeliveryPage>;
  forRecords(table: string, ids: number[]): Promise<Record<string, DeliveryEntry>>;
  resend(id: number): Promise<DeliveryEntry>;
};

/** The admin delivery log calls; a 401 goes to the API client's session listeners. */
export const deliveryApi: DeliveryApi = {
  list: (state, page) => api.get<DeliveryPage>(`${deliveriesPath}?state=${state}&page=${page}`),
  forRecords: async (table, ids) =>
    (await api.get<RecordDeliveries>(`${recordDeliveriesPath(table)}?ids=${ids.join(',')}`))
      .deliveries,
  resend: async (id) => (await api.post<ResentDelivery>(deliveryResendPath(id))).delivery,
};
