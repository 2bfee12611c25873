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
/** A key's totals (date null) or a day's page views (source key null) over rolled-up days. */
type RolledRow = CountRow & { date: string | null; dayVisitors: number; dayPageviews: number };
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

    const liveDays = sql`select distinct day from insight_events
      where day between ${from}::date and ${to}::date`;
    const [rolled, liveCounts, liveDayCounts, sales, daySales, entries, clients] =
      await Promise.all([
        // One pass over the rolled-up days (one row per day and source key): the range's
        // totals per key and, for the chart, the page views per day.
        sql<RolledRow>`
        select to_char(day, 'YYYY-MM-DD') as date, source, medium, campaign, channel,
          sum(visitors)::float8 as visitors, sum(guide_requests)::float8 as "guideRequests",
          sum(checkout_clicks)::float8 as "checkoutClicks",
          coalesce(sum(visitors) filter (where ${eventFilter}), 0)::int as "dayVisitors",
          coalesce(sum(pageviews) filter (where ${eventFilter}), 0)::int as "dayPageviews"
        from insight_campaign_daily d
        where d.day between ${from}::date and ${to}::date and d.day not in (${liveDays})
        group by grouping sets ((source, medium, campaign, channel), (day))`.execute(db),
        sql<CountRow>`
        select source, medium, campaign, channel,
          coalesce(sum(visitors) filter (where name = 'page_view'), 0)::float8 as visitors,
          coalesce(sum(events) filter (where name = 'guide_requested'), 0)::float8
            as "guideRequests",
          coalesce(sum(events) filter (where name = 'checkout_click'), 0)::float8
            as "checkoutClicks"
        from (
          select source, medium, campaign, channel, name,
            count(distinct visitor) as visitors, count(*) as events
          from insight_events where day between ${from}::date and ${to}::date
          group by day, source, medium, campaign, channel, name
        ) live group by source, medium, campaign, channel`.execute(db),
        sql<DayRow>`
        select to_char(day, 'YYYY-MM-DD') as date, count(distinct visitor)::int as visitors,
          count(*)::int as pageviews
        from insight_events
        where day between ${from}::date and ${to}::date and name = 'page_view' and ${eventFilter}
        group by day`.execute(db),
        sql<SalesRow>`
        select ${orderSource} as source, coalesce(utm_medium, '') as medium,
          coalesce(utm_campaign, '') as campaign, coalesce(channel, ${DIRECT}) as channel,
          count(*)::int as purchases, coalesce(sum(amount_total), 0)::float8 as revenue
        from orders where ${paidInRange}
        group by 1, 2, 3, 4`.execute(db),
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
    const addCounts = (row: CountRow) => {
      const { source, medium, campaign, channel, visitors, guideRequests, checkoutClicks } = row;
      const found = rows.get(key(row));
      if (found) {
        found.visitors += visitors;
        found.guideRequests += guideRequests;
        found.checkoutClicks += checkoutClicks;
      } else {
        rows.set(key(row), {
          ...{ source, medium, campaign, visitors, guideRequests, checkoutClicks },
          channel: channel as Channel,
          purchases: 0,
          revenue: 0,
        });
      }
    };
    for (const row of rolled.rows) if (row.date === null) addCounts(row);
    for (const row of liveCounts.rows) addCounts(row);
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
    for (const row of rolled.rows) {
      if (row.date === null) continue;
      const day = byDay.get(row.date)!;
      day.visitors = row.dayVisitors;
      day.pageviews = row.dayPageviews;
    }
    for (const row of liveDayCounts.rows) {
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
      // In the order of their keys, whichever days were live or rolled up.
      rows: [...rows.entries()]
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([, row]) => row)
        .map((row) => ({ ...row, channel: row.channel as Channel })),
      days: [...byDay.values()],
      entries: entries.rows,
      clients: clients.rows,
    };
  });
};
