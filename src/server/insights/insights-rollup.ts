import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type { PeriodicTask } from '../periodic/periodic-work';
import { utcDay } from '../../shared/utc-days';

/** Raw events are kept for today and the two days before it, then only their daily totals. */
export const RAW_DAYS_KEPT = 2;

/**
 * Rolls every day that still has raw events up into insight_daily (again and again while it
 * lasts: a day is only ever deleted whole, so each roll-up counts a whole day), then deletes
 * the raw events of days older than RAW_DAYS_KEPT and the salts of days that are over.
 */
export async function rollUpInsights(trx: Kysely<Database>, now = new Date()): Promise<void> {
  const today = utcDay(now);
  await sql`
    insert into insight_daily (day, name, visitors, events)
    select day, name, count(distinct visitor), count(*) from insight_events group by day, name
    on conflict (day, name) do update
      set visitors = excluded.visitors, events = excluded.events`.execute(trx);
  // DESIGN.md "Sources and campaigns": the same per source, the entry routes and the browsers.
  await sql`
    insert into insight_source_daily
      (day, source, medium, campaign, channel, name, visitors, events)
    select day, source, medium, campaign, channel, name, count(distinct visitor), count(*)
    from insight_events group by day, source, medium, campaign, channel, name
    on conflict (day, source, medium, campaign, channel, name) do update
      set visitors = excluded.visitors, events = excluded.events`.execute(trx);
  await sql`
    insert into insight_campaign_daily (day, source, medium, campaign, channel, visitors,
      pageviews, guide_requests, checkout_clicks)
    select day, source, medium, campaign, channel,
      count(distinct visitor) filter (where name = 'page_view'),
      count(*) filter (where name = 'page_view'),
      count(*) filter (where name = 'guide_requested'),
      count(*) filter (where name = 'checkout_click')
    from insight_events group by day, source, medium, campaign, channel
    on conflict (day, source, medium, campaign, channel) do update
      set visitors = excluded.visitors, pageviews = excluded.pageviews,
        guide_requests = excluded.guide_requests,
        checkout_clicks = excluded.checkout_clicks`.execute(trx);
  await sql`
    insert into insight_entry_daily (day, path, visitors)
    select day, path, count(*) from (
      select distinct on (day, visitor) day, path from insight_events
      where name = 'page_view' order by day, visitor, id
    ) entries group by day, path
    on conflict (day, path) do update set visitors = excluded.visitors`.execute(trx);
  await sql`
    insert into insight_client_daily (day, browser, device, visitors)
    select day, browser, device, count(distinct visitor) from insight_events
    group by day, browser, device
    on conflict (day, browser, device) do update set visitors = excluded.visitors`.execute(trx);
  await sql`
    delete from insight_events
    where day < ${today}::date - ${RAW_DAYS_KEPT}::int`.execute(trx);
  await sql`delete from insight_salts where day < ${today}::date`.execute(trx);
}

export const insightsRollup: PeriodicTask = {
  name: 'roll insight events up into daily totals and delete old events and salts',
  run: (trx) => rollUpInsights(trx),
};
