import {
  ADMIN_SUBSCRIBERS_PATH,
  adminSubscriberPath,
  type AdminSubscriber,
  type ImportReport,
  type ListStatus,
  type SubscriberPage,
} from '../../../shared/list/list-api';
import { api } from '../../lib/api-client';

export type SubscriberFilter = ListStatus | 'all';
export type SubscriberQuery = { page: number; status: SubscriberFilter; q: string };

/** The admin's subscriber calls (shared/list/list-api.ts); a 401 sends the owner to sign in. */
export const subscriberAdmin = {
  list({ page, status, q }: SubscriberQuery): Promise<SubscriberPage> {
    const query = new URLSearchParams({ page: String(page) });
    if (status !== 'all') query.set('status', status);
    if (q.trim()) query.set('q', q.trim());
    return api.get<SubscriberPage>(`${ADMIN_SUBSCRIBERS_PATH}?${query}`);
  },
  exportUrl: `${ADMIN_SUBSCRIBERS_PATH}/export`,
  importCsv(csv: string, dryRun: boolean): Promise<ImportReport> {
    return api.postText<ImportReport>(
      `${ADMIN_SUBSCRIBERS_PATH}/import${dryRun ? '?dryRun=1' : ''}`,
      csv,
      'text/csv',
    );
  },
  async unsubscribe(id: number): Promise<AdminSubscriber> {
    return (
      await api.post<{ subscriber: AdminSubscriber }>(`${adminSubscriberPath(id)}/unsubscribe`)
    ).subscriber;
  },
};
