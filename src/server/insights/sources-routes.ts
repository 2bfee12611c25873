import type { FastifyPluginAsync } from 'fastify';
import { sql } from 'kysely';
import {
  insightSourcesQuerySchema,
  type InsightSources,
  type InsightsDay,
  type SourceRow,
} from '../../shared/insights/insights-api';
import { DIRECT, type Channel } from '../../shared/insights/visit-source';
import { parsedOr400 } from '../http/input';
import { rangeOf } from './insights-routes';

type CountRow = Omit<SourceRow, 'purchases' | 'revenue'>;
type SalesRow = Pick<
  SourceRow,
  'source' | 'medium' | 'campaign' | 'channel' | 'purchases' | 'revenue'
>;
type DayRow = { date: string; visitors: number; pageviews: number };
type DaySales = { date: string; purchases: number; revenue: number };

/**
 * GET /api/admin/insights/sources?from&to[&source] (DESIGN.md "Sources and campaigns"): per
 * source, medium, campaign and channel, the visitors, guide requests and checkout clicks of
 * the range, and the purchases and revenue of orders still paid that carry that source (an
 * order without one is direct). With the range's days for one source, the entry routes and
 * the browsers and devices. As for Insights, a day still holding raw events is counted from
 * them (today is live), an older one from its roll-up.
 */
export const sourcesRoutes: FastifyPluginAsync = async (scope) => {
  const { db } = scope.database;
  const { currency } = scope.config.product;

  scope.get('/insights/sources', async (request): Promise<InsightSources> => {
    const { from, to, days } = rangeOf(request.query);
    const { source } = parsedOr400(insightSourcesQuerySchema, request.query, 'Invalid range');
    const paidInRange = sql`status = 'paid'
      and paid_at >= (${from}::date)::timestamp at time zone 'UTC'
      and paid_at < (${to}::date + 1)::timestamp at time zone 'UTC'`;
    const orderSource = sql`coalesce(utm_source, ${DIRECT})`;
    const eventFilter = source === undefined ? sql`true` : sql`source = ${source}`;
    const orderFilter = source === undefined ? sql`true` : sql`${orderSource} = ${source}`;

    const [counts, sales, dayCounts, daySales, entries, clients] = await Promise.all([
      sql<CountRow>`
        with live as (
          select day, source, medium, campaign, channel, name,
            count(distinct visitor)::int as visitors, count(*)::int as events
          from insight_events where day between ${from}::date and ${to}::date
          group by day, source, medium, campaign, channel, name
        ), live_days as (select distinct day from live),
        counted as (
          select source, medium, campaign, channel, name, visitors, events from live
          union all
          select source, medium, campaign, channel, name, visitors, events
          from insight_source_daily d
          where d.day between ${from}::date and ${to}::date
            and d.day not in (select day from live_days)
        )
        select source, medium, campaign, channel,
          coalesce(sum(visitors) filter (where name = 'page_view'), 0)::float8 as visitors,
          coalesce(sum(events) filter (where name = 'guide_requested'), 0)::float8
            as "guideRequests",
          coalesce(sum(events) filter (where name = 'checkout_click'), 0)::float8
            as "checkoutClicks"
        from counted group by source, medium, campaign, channel`.execute(db),
      sql<SalesRow>`
        select ${orderSource} as source, coalesce(utm_medium, '') as medium,
          coalesce(utm_campaign, '') as campaign, coalesce(channel, ${DIRECT}) as channel,
          count(*)::int as purchases, coalesce(sum(amount_total), 0)::float8 as revenue
        from orders where ${paidInRange}
        group by 1, 2, 3, 4`.execute(db),
      sql<DayRow>`
        with live as (
          select day, count(distinct visitor)::int as visitors, count(*)::int as pageviews
          from insight_events
          where day between ${from}::date and ${to}::date and name = 'page_view' and ${eventFilter}
          group by day
        ), live_days as (select distinct day from insight_events
          where day between ${from}::date and ${to}::date)
        select to_char(day, 'YYYY-MM-DD') as date, visitors, pageviews from live
        union all
        select to_char(day, 'YYYY-MM-DD'), sum(visitors)::int, sum(events)::int
        from insight_source_daily d
        where d.day between ${from}::date and ${to}::date and name = 'page_view'
          and ${eventFilter} and d.day not in (select day from live_days)
        group by day`.execute(db),
      sql<DaySales>`
        select to_char((paid_at at time zone 'UTC')::date, 'YYYY-MM-DD') as date,
          count(*)::int as purchases, coalesce(sum(amount_total), 0)::float8 as revenue
        from orders where ${paidInRange} and ${orderFilter}
        group by 1`.execute(db),
      sql<{ path: string; visitors: number }>`
        with live as (
          select day, path from (
            select distinct on (day, visitor) day, path from insight_events
            where day between ${from}::date and ${to}::date and name = 'page_view'
            order by day, visitor, id
          ) e
        ), live_days as (select distinct day from insight_events
          where day between ${from}::date and ${to}::date)
        select path, sum(visitors)::float8 as visitors from (
          select path, count(*) as visitors from live group by path
          union all
          select path, visitors from insight_entry_daily d
          where d.day between ${from}::date and ${to}::date
            and d.day not in (select day from live_days)
        ) t group by path order by visitors desc, path limit 20`.execute(db),
      sql<{ browser: string; device: string; visitors: number }>`
        with live_days as (select distinct day from insight_events
          where day between ${from}::date and ${to}::date)
        select browser, device, sum(visitors)::float8 as visitors from (
          select day, browser, device, count(distinct visitor) as visitors from insight_events
          where day between ${from}::date and ${to}::date group by day, browser, device
          union all
          select day, browser, device, visitors from insight_client_daily d
          where d.day between ${from}::date and ${to}::date
            and d.day not in (select day from live_days)
        ) t group by browser, device order by visitors desc, browser, device`.execute(db),
    ]);

    const key = (row: Pick<SourceRow, 'source' | 'medium' | 'campaign' | 'channel'>) =>
      JSON.stringify([row.source, row.medium, row.campaign, row.channel]);
    const rows = new Map<string, SourceRow>();
    for (const row of counts.rows) rows.set(key(row), { ...row, purchases: 0, revenue: 0 });
    for (const row of sales.rows) {
      const found = rows.get(key(row));
      if (found) {
        found.purchases += row.purchases;
        found.revenue += row.revenue;
      } else {
        rows.set(key(row), { ...row, visitors: 0, guideRequests: 0, checkoutClicks: 0 });
      }
    }

    const byDay = new Map<string, InsightsDay>(
      days.map((date) => [date, { date, visitors: 0, pageviews: 0, purchases: 0, revenue: 0 }]),
    );
    for (const row of dayCounts.rows) {
      const day = byDay.get(row.date)!;
      day.visitors = row.visitors;
      day.pageviews = row.pageviews;
    }
    for (const row of daySales.rows) {
      const day = byDay.get(row.date)!;
      day.purchases = row.purchases;
      day.revenue = row.revenue;
    }
    return {
      from,
      to,
      currency,
      rows: [...rows.values()].map((row) => ({ ...row, channel: row.channel as Channel })),
      days: [...byDay.values()],
      entries: entries.rows,
      clients: clients.rows,
    };
  });
};
