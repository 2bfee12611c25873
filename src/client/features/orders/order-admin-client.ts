import {
  ADMIN_ORDERS_PATH,
  adminOrderPath,
  type AdminOrder,
  type OrderPage,
  type OrderStatus,
} from '../../../shared/orders/order-api';
import { api } from '../../lib/api-client';

export type OrderFilter = OrderStatus | 'all';
export type OrderQuery = { page: number; status: OrderFilter; q: string };

type OrderAnswer = { order: AdminOrder };

/** The admin orders calls (shared/orders/order-api.ts); a 401 sends the owner to sign in. */
export const orderAdmin = {
  list({ page, status, q }: OrderQuery): Promise<OrderPage> {
    const query = new URLSearchParams({ page: String(page) });
    if (status !== 'all') query.set('status', status);
    if (q.trim()) query.set('q', q.trim());
    return api.get<OrderPage>(`${ADMIN_ORDERS_PATH}?${query}`);
  },
  async saveNotes(id: number, notes: string): Promise<AdminOrder> {
    return (await api.put<OrderAnswer>(adminOrderPath(id), { notes })).order;
  },
  async resendLink(id: number): Promise<AdminOrder> {
    return (await api.post<OrderAnswer>(`${adminOrderPath(id)}/resend-link`)).order;
  },
  async revokeLinks(id: number): Promise<AdminOrder> {
    return (await api.post<OrderAnswer>(`${adminOrderPath(id)}/revoke`)).order;
  },
};
