import type { FastifyPluginAsync } from 'fastify';
import { sql } from 'kysely';
import {
  insightSourcesQuerySchema,
  type InsightSources,
  type InsightsDay,
  type SourceRow,
} from '../../shared/insights/insights-api';
import type { Channel } from '../../shared/insights/visit-source';
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
  const { db, prepared } = scope.database;
  const { currency } = scope.config.product;

  scope.get('/insights/sources', async (request): Promise<InsightSources> => {
    const { from, to, days } = rangeOf(request.query);
    const { source } = parsedOr400(insightSourcesQuerySchema, request.query, 'Invalid range');
    const eventFilter = source === undefined ? sql`true` : sql`source = ${source}`;

    // The days of the range still holding raw events (the last few at most), each found by one
    // index probe rather than by reading their events.
    const liveDays = sql`with recursive live(day) as (
        select min(day) from insight_events where day between ${from}::date and ${to}::date
        union all
        select (select min(day) from insight_events where day > live.day and day <= ${to}::date)
        from live where live.day is not null
      ) select day from live where day is not null`;
    // Prepared statements (their text is the same on every request): planning these six took
    // about as long as running them.
    const [counts, dayCounts, sales, daySales, entries, clients] = await Promise.all([
      // Per key, its running totals at the range's last day minus those before its first
      // (migration 0019), less the rolled-up rows of the days counted live; then those days
      // from their events. A range ending on or after the key's last day takes the key's own
      // totals (migration 0023), and one starting on or before its first day has nothing to
      // take off: no probe for either.
      prepared(
        sql<CountRow>`
        with live_days as (${liveDays}), ranged as (
          select k.source, k.medium, k.campaign, k.channel,
            coalesce(hi.days, k.days) - coalesce(lo.days, 0) as days,
            coalesce(hi.visitors, k.visitors) - coalesce(lo.visitors, 0) as visitors,
            coalesce(hi.guide_requests, k.guide_requests) - coalesce(lo.guide_requests, 0)
              as guide_requests,
            coalesce(hi.checkout_clicks, k.checkout_clicks) - coalesce(lo.checkout_clicks, 0)
              as checkout_clicks
          from insight_campaign_keys k
          left join lateral (
            select days, visitors, guide_requests, checkout_clicks
            from insight_campaign_running r
            where k.last_day > ${to}::date and r.key_id = k.id and r.day <= ${to}::date
            order by r.day desc limit 1
          ) hi on true
          left join lateral (
            select days, visitors, guide_requests, checkout_clicks
            from insight_campaign_running r
            where k.first_day < ${from}::date and r.key_id = k.id and r.day < ${from}::date
            order by r.day desc limit 1
          ) lo on true
          where k.first_day <= ${to}::date and k.last_day >= ${from}::date
        ), live_rolled as (
          select source, medium, campaign, channel, count(*) as days,
            sum(visitors) as visitors, sum(guide_requests) as guide_requests,
            sum(checkout_clicks) as checkout_clicks
          from insight_campaign_daily where day = any (array(select day from live_days))
          group by source, medium, campaign, channel
        )
        select r.source, r.medium, r.campaign, r.channel,
          (r.visitors - coalesce(l.visitors, 0))::float8 as visitors,
          (r.guide_requests - coalesce(l.guide_requests, 0))::float8 as "guideRequests",
          (r.checkout_clicks - coalesce(l.checkout_clicks, 0))::float8 as "checkoutClicks"
        from ranged r left join live_rolled l using (source, medium, campaign, channel)
        where r.days > coalesce(l.days, 0)
        union all
        -- The live days, from their events.
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
        ) live group by source, medium, campaign, channel`.compile(db),
      ),
      // The chart: rolled-up days from the totals of all keys or the rows of one source, live
      // days from their events.
      prepared(
        sql<DayRow>`
        with live_days as (${liveDays})
        select to_char(day, 'YYYY-MM-DD') as date, visitors::int, pageviews::int from (
          ${
            source === undefined
              ? sql`select day, visitors, pageviews from insight_campaign_day_totals`
              : sql`select day, sum(visitors) as visitors, sum(pageviews) as pageviews
                  from insight_campaign_daily
                  where source = ${source} and day between ${from}::date and ${to}::date
                  group by day`
          }
        ) rolled
        where day between ${from}::date and ${to}::date
          and day not in (select day from live_days)
        union all
        select to_char(day, 'YYYY-MM-DD'), count(distinct visitor)::int, count(*)::int
        from insight_events
        where day between ${from}::date and ${to}::date and name = 'page_view' and ${eventFilter}
        group by day`.compile(db),
      ),
      // Paid orders per key: their running totals (kept by a trigger on orders, migration
      // 0019) at the range's last day minus those before its first, with the key's own totals
      // and days (migration 0023) sparing the probes as above.
      prepared(
        sql<SalesRow>`
        select source, medium, campaign, channel, purchases::int, revenue::float8 from (
          select k.source, k.medium, k.campaign, k.channel,
            coalesce(hi.purchases, k.purchases) - coalesce(lo.purchases, 0) as purchases,
            coalesce(hi.revenue, k.revenue) - coalesce(lo.revenue, 0) as revenue
          from order_source_keys k
          left join lateral (
            select purchases, revenue from order_source_running r
            where k.last_day > ${to}::date and r.key_id = k.id and r.day <= ${to}::date
            order by r.day desc limit 1
          ) hi on true
          left join lateral (
            select purchases, revenue from order_source_running r
            where k.first_day < ${from}::date and r.key_id = k.id and r.day < ${from}::date
            order by r.day desc limit 1
          ) lo on true
          where k.first_day <= ${to}::date and k.last_day >= ${from}::date
        ) ranged
        where purchases > 0`.compile(db),
      ),
      // Paid orders per day, of every source or of the one asked for.
      prepared(
        sql<DaySales>`
        ${
          source === undefined
            ? sql`select to_char(day, 'YYYY-MM-DD') as date, purchases,
                revenue::float8 as revenue
              from order_day_totals where day between ${from}::date and ${to}::date`
            : sql`select to_char(d.day, 'YYYY-MM-DD') as date, sum(d.purchases)::int as purchases,
                sum(d.revenue)::float8 as revenue
              from order_source_daily d join order_source_keys k on k.id = d.key_id
              where k.source = ${source} and d.day between ${from}::date and ${to}::date
              group by d.day`
        }`.compile(db),
      ),
      prepared(
        sql<{ path: string; visitors: number }>`
        with live as (
          select day, path from (
            select distinct on (day, visitor) day, path from insight_events
            where day between ${from}::date and ${to}::date and name = 'page_view'
            order by day, visitor, id
          ) e
        ), live_days as (${liveDays})
        select path, sum(visitors)::float8 as visitors from (
          select path, count(*) as visitors from live group by path
          union all
          select path, visitors from insight_entry_daily d
          where d.day between ${from}::date and ${to}::date
            and d.day not in (select day from live_days)
        ) t group by path order by visitors desc, path limit 20`.compile(db),
      ),
      prepared(
        sql<{ browser: string; device: string; visitors: number }>`
        with live_days as (${liveDays})
        select browser, device, sum(visitors)::float8 as visitors from (
          select day, browser, device, count(distinct visitor) as visitors from insight_events
          where day between ${from}::date and ${to}::date group by day, browser, device
          union all
          select day, browser, device, visitors from insight_client_daily d
          where d.day between ${from}::date and ${to}::date
            and d.day not in (select day from live_days)
        ) t group by browser, device order by visitors desc, browser, device`.compile(db),
      ),
    ]);

    // One plain object per key, built field by field: spreading object literals here made
    // V8 build each row the slow way, about 1 ms of CPU per 200 rows on every request.
    const rows = new Map<string, SourceRow>();
    const rowOf = (found: Pick<SourceRow, 'source' | 'medium' | 'campaign' | 'channel'>) => {
      const key = JSON.stringify([found.source, found.medium, found.campaign, found.channel]);
      let row = rows.get(key);
      if (row === undefined) {
        row = {
          source: found.source,
          medium: found.medium,
          campaign: found.campaign,
          channel: found.channel as Channel,
          visitors: 0,
          guideRequests: 0,
          checkoutClicks: 0,
          purchases: 0,
          revenue: 0,
        };
        rows.set(key, row);
      }
      return row;
    };
    for (const found of counts) {
      const row = rowOf(found);
      row.visitors += found.visitors;
      row.guideRequests += found.guideRequests;
      row.checkoutClicks += found.checkoutClicks;
    }
    for (const found of sales) {
      const row = rowOf(found);
      row.purchases += found.purchases;
      row.revenue += found.revenue;
    }

    const byDay = new Map<string, InsightsDay>(
      days.map((date) => [date, { date, visitors: 0, pageviews: 0, purchases: 0, revenue: 0 }]),
    );
    for (const row of dayCounts) {
      const day = byDay.get(row.date)!;
      day.visitors = row.visitors;
      day.pageviews = row.pageviews;
    }
    for (const row of daySales) {
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
        .map(([, row]) => row),
      days: [...byDay.values()],
      entries,
      clients,
    };
  });
};
