import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { rebuildSourceRanges } from '../src/server/insights/insights-rollup';

type FillBody = { days: number; sources: number; events: number; orders: number };

/**
 * POST /__bench/fill-insights { days, sources, events, orders }: the roll-up as `events` raw
 * events would leave it, spread over the last `days` days and `sources` sources (each with a
 * campaign, three of four with a medium), with entry routes and browsers, and `orders` paid
 * orders carrying those sources; then the planner's statistics, as autovacuum would.
 */
export async function insightsBenchRoute(app: FastifyInstance) {
  app.post<{ Body: FillBody }>('/__bench/fill-insights', async (request) => {
    const { db } = app.database;
    const { days, sources, events, orders } = request.body;
    // Per day and source: page views, and a tenth of them guide requests, a twentieth clicks.
    const views = Math.max(1, Math.round(events / days / sources / 1.15));
    await sql`
      insert into insight_source_daily
        (day, source, medium, campaign, channel, name, visitors, events)
      select current_date - d, 'source-' || s || '.example',
        case when s % 4 = 0 then '' else 'medium-' || (s % 5) end, 'campaign-' || (s % 20),
        (array['direct','search','social','email','paid','referral'])[1 + s % 6], n.name,
        greatest(1, ${views}::int * n.share / 100 * 2 / 3), ${views}::int * n.share / 100
      from generate_series(0, ${days - 1}::int) d, generate_series(1, ${sources}::int) s,
        (values ('page_view', 100), ('guide_requested', 10), ('checkout_click', 5)) n(name, share)
      on conflict do nothing`.execute(db);
    await sql`
      insert into insight_campaign_daily (day, source, medium, campaign, channel, visitors,
        pageviews, guide_requests, checkout_clicks)
      select day, source, medium, campaign, channel,
        coalesce(sum(visitors) filter (where name = 'page_view'), 0),
        coalesce(sum(events) filter (where name = 'page_view'), 0),
        coalesce(sum(events) filter (where name = 'guide_requested'), 0),
        coalesce(sum(events) filter (where name = 'checkout_click'), 0)
      from insight_source_daily group by day, source, medium, campaign, channel
      on conflict do nothing`.execute(db);
    await rebuildSourceRanges(db);
    await sql`
      insert into insight_daily (day, name, visitors, events)
      select day, name, sum(visitors), sum(events) from insight_source_daily group by day, name
      on conflict do nothing`.execute(db);
    await sql`
      insert into insight_entry_daily (day, path, visitors)
      select current_date - d, p, ${views * sources}::int / (i + 1)
      from generate_series(0, ${days - 1}::int) d,
        unnest(array['/', '/privacy-policy', '/contact-us', '/refund-policy']) with ordinality u(p, i)
      on conflict do nothing`.execute(db);
    await sql`
      insert into insight_client_daily (day, browser, device, visitors)
      select current_date - d, b, v, ${views * sources}::int / 8
      from generate_series(0, ${days - 1}::int) d,
        unnest(array['chrome', 'safari', 'firefox', 'edge']) b,
        unnest(array['desktop', 'mobile']) v
      on conflict do nothing`.execute(db);
    await sql`
      insert into orders (session_id, email, amount_total, currency, status, paid_at,
        utm_source, utm_medium, utm_campaign, channel)
      select 'cs_bench_' || g, 'buyer' || g || '@example.com', 2700, 'usd', 'paid',
        now() - (g % ${days}::int) * interval '1 day',
        'source-' || (1 + g % ${sources}::int) || '.example', '', 'campaign-' || (g % 20), 'referral'
      from generate_series(1, ${orders}::int) g
      on conflict do nothing`.execute(db);
    for (const table of [
      'insight_source_daily',
      'insight_campaign_daily',
      'insight_campaign_keys',
      'insight_campaign_running',
      'insight_campaign_day_totals',
      'insight_daily',
      'insight_entry_daily',
      'insight_client_daily',
      'orders',
      'order_source_keys',
      'order_source_daily',
      'order_source_running',
      'order_day_totals',
    ])
      await sql`vacuum analyze ${sql.table(table)}`.execute(db);
    const { rows } = await sql<{ rows: string | number; events: string | number }>`
      select count(*) as rows, coalesce(sum(events), 0) as events from insight_source_daily`.execute(
      db,
    );
    return { rows: Number(rows[0]!.rows), events: Number(rows[0]!.events) };
  });
}
