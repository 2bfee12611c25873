import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { PURCHASE_WINDOW_DAYS, type SendResults } from '../../shared/broadcasts/broadcasts-api';

export type ResultsWithRate = SendResults & {
  /** Messages sent in the last minute (for the rate while sending). */
  sentLastMinute: number;
};

const empty: ResultsWithRate = {
  recipients: 0,
  sent: 0,
  failed: 0,
  bounced: 0,
  remaining: 0,
  unsubscribed: 0,
  purchases: 0,
  revenue: 0,
  sentLastMinute: 0,
};

/**
 * The results of broadcasts or sequence steps, by id: counts of their messages by state,
 * recipients who unsubscribed after their message was sent, and the verified paid orders of
 * recipients' addresses within PURCHASE_WINDOW_DAYS after it (no opens, no clicks: money).
 * One recipient row per subscriber and one subscriber per address, so no order counts twice
 * for one broadcast.
 */
export async function sendResults(
  db: Kysely<Database>,
  ids: number[],
): Promise<Map<number, ResultsWithRate>> {
  const results = new Map<number, ResultsWithRate>(ids.map((id) => [id, { ...empty }]));
  if (ids.length === 0) return results;
  const list = `{${ids.join(',')}}`;
  const [counts, purchases] = await Promise.all([
    sql<Omit<ResultsWithRate, 'purchases' | 'revenue'> & { id: number }>`
      select r.broadcast_id as id,
        count(*)::int as recipients,
        count(*) filter (where r.status = 'sent')::int as sent,
        count(*) filter (where r.status = 'failed')::int as failed,
        count(*) filter (where r.status = 'bounced')::int as bounced,
        count(*) filter (where r.status = 'pending')::int as remaining,
        count(*) filter (where r.status = 'sent' and s.unsubscribed_at >= r.sent_at)::int
          as unsubscribed,
        count(*) filter (where r.status = 'sent' and r.sent_at > now() - interval '1 minute')::int
          as "sentLastMinute"
      from broadcast_recipients r
      join list_subscribers s on s.id = r.subscriber_id
      where r.broadcast_id = any(${list}::bigint[])
      group by r.broadcast_id`.execute(db),
    sql<{ id: number; purchases: number; revenue: number }>`
      select r.broadcast_id as id, count(*)::int as purchases,
        coalesce(sum(o.amount_total), 0)::bigint as revenue
      from broadcast_recipients r
      join list_subscribers s on s.id = r.subscriber_id
      join orders o on lower(o.email) = lower(s.email) and o.status = 'paid'
        and o.paid_at >= r.sent_at
        and o.paid_at < r.sent_at + ${PURCHASE_WINDOW_DAYS}::int * interval '1 day'
      where r.broadcast_id = any(${list}::bigint[]) and r.status = 'sent'
      group by r.broadcast_id`.execute(db),
  ]);
  for (const { id, ...row } of counts.rows) Object.assign(results.get(Number(id))!, row);
  for (const { id, ...row } of purchases.rows) {
    Object.assign(results.get(Number(id))!, {
      purchases: row.purchases,
      revenue: Number(row.revenue),
    });
  }
  return results;
}
