import { sql, type Kysely } from 'kysely';
import { PURCHASE_WINDOW_DAYS, type SendResults } from '../../shared/broadcasts/broadcasts-api';
import type { Database } from '../db/schema';

export const NO_RESULTS: SendResults = {
  recipients: 0,
  sent: 0,
  failed: 0,
  bounced: 0,
  remaining: 0,
  unsubscribed: 0,
  purchases: 0,
  revenue: 0,
};

/**
 * The results of broadcasts or sequence steps, by id (every id asked for has an entry): their
 * rows by status, the recipients who unsubscribed after the message reached them, and the
 * verified paid orders (and their amount) of an address it reached within
 * PURCHASE_WINDOW_DAYS after it. No opens or clicks: nothing per person is tracked.
 */
export async function sendResults(
  db: Kysely<Database>,
  ids: readonly number[],
): Promise<Map<number, SendResults>> {
  const results = new Map(ids.map((id) => [id, { ...NO_RESULTS }]));
  if (ids.length === 0) return results;
  const wanted = `{${ids.join(',')}}`;
  const { rows } = await sql<{
    broadcast_id: number;
    recipients: string;
    sent: string;
    failed: string;
    bounced: string;
    remaining: string;
    unsubscribed: string;
    purchases: string | null;
    revenue: string | null;
  }>`
    with counts as (
      select r.broadcast_id,
        count(*) as recipients,
        count(*) filter (where r.status = 'sent') as sent,
        count(*) filter (where r.status = 'failed') as failed,
        count(*) filter (where r.status = 'bounced') as bounced,
        count(*) filter (where r.status = 'pending') as remaining,
        count(*) filter (where r.status = 'sent' and s.unsubscribed_at > r.sent_at)
          as unsubscribed
      from broadcast_recipients r
      join list_subscribers s on s.id = r.subscriber_id
      where r.broadcast_id = any(${wanted}::bigint[])
      group by r.broadcast_id
    ), bought as (
      select r.broadcast_id, count(*) as purchases, sum(o.amount_total) as revenue
      from broadcast_recipients r
      join list_subscribers s on s.id = r.subscriber_id
      join orders o on lower(o.email) = lower(s.email)
      where r.broadcast_id = any(${wanted}::bigint[]) and r.status = 'sent'
        and o.status = 'paid' and o.paid_at >= r.sent_at
        and o.paid_at < r.sent_at + make_interval(days => ${PURCHASE_WINDOW_DAYS})
      group by r.broadcast_id
    )
    select c.*, b.purchases, b.revenue
    from counts c left join bought b on b.broadcast_id = c.broadcast_id`.execute(db);
  for (const row of rows) {
    results.set(Number(row.broadcast_id), {
      recipients: Number(row.recipients),
      sent: Number(row.sent),
      failed: Number(row.failed),
      bounced: Number(row.bounced),
      remaining: Number(row.remaining),
      unsubscribed: Number(row.unsubscribed),
      purchases: Number(row.purchases ?? 0),
      revenue: Number(row.revenue ?? 0),
    });
  }
  return results;
}
