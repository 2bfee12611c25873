import { sql, type Kysely, type RawBuilder } from 'kysely';
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
  await rollUpRanges(trx);
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

/**
 * Keeps what the Sources answer reads for a range (migrations 0019, 0023): the source keys with
 * their first and last days and their totals through the last, each key's running totals, rewritten from the earliest day that still
 * has raw events (the only days whose insight_campaign_daily rows change), and the totals over
 * all keys of those days.
 */
async function rollUpRanges(trx: Kysely<Database>): Promise<void> {
  await sql`
    insert into insight_campaign_keys (source, medium, campaign, channel, first_day, last_day)
    select source, medium, campaign, channel, min(day), max(day) from insight_events
    group by source, medium, campaign, channel
    on conflict (source, medium, campaign, channel) do update
      set first_day = least(insight_campaign_keys.first_day, excluded.first_day),
        last_day = greatest(insight_campaign_keys.last_day, excluded.last_day)`.execute(trx);
  const touched = sql`
    select k.id, k.source, k.medium, k.campaign, k.channel, e.since
    from (
      select source, medium, campaign, channel, min(day) as since from insight_events
      group by source, medium, campaign, channel
    ) e join insight_campaign_keys k using (source, medium, campaign, channel)`;
  await sql`
    delete from insight_campaign_running r using (${touched}) t
    where r.key_id = t.id and r.day >= t.since`.execute(trx);
  await sql`
    insert into insight_campaign_running
      (key_id, day, days, visitors, guide_requests, checkout_clicks)
    select t.id, d.day, coalesce(b.days, 0) + count(*) over w,
      coalesce(b.visitors, 0) + sum(d.visitors) over w,
      coalesce(b.guide_requests, 0) + sum(d.guide_requests) over w,
      coalesce(b.checkout_clicks, 0) + sum(d.checkout_clicks) over w
    from (${touched}) t
    join insight_campaign_daily d on d.source = t.source and d.medium = t.medium
      and d.campaign = t.campaign and d.channel = t.channel and d.day >= t.since
    left join lateral (
      select days, visitors, guide_requests, checkout_clicks from insight_campaign_running r
      where r.key_id = t.id and r.day < t.since order by r.day desc limit 1
    ) b on true
    window w as (partition by t.id order by d.day)`.execute(trx);
  await keepKeyTotals(trx, sql`select id from (${touched}) t`);
  await sql`
    insert into insight_campaign_day_totals (day, visitors, pageviews)
    select day, sum(visitors), sum(pageviews) from insight_campaign_daily
    where day in (select distinct day from insight_events) group by day
    on conflict (day) do update
      set visitors = excluded.visitors, pageviews = excluded.pageviews`.execute(trx);
}

/**
 * What rollUpRanges keeps, computed afresh from the whole of insight_campaign_daily, as
 * migration 0019 first filled it: for a roll-up written by other means (the bench), and to
 * check the kept one against.
 */
export async function rebuildSourceRanges(trx: Kysely<Database>): Promise<void> {
  await sql`delete from insight_campaign_running`.execute(trx);
  await sql`delete from insight_campaign_keys`.execute(trx);
  await sql`delete from insight_campaign_day_totals`.execute(trx);
  await sql`
    insert into insight_campaign_keys (source, medium, campaign, channel, first_day, last_day)
    select source, medium, campaign, channel, min(day), max(day) from insight_campaign_daily
    group by source, medium, campaign, channel`.execute(trx);
  await sql`
    insert into insight_campaign_running
      (key_id, day, days, visitors, guide_requests, checkout_clicks)
    select k.id, d.day, count(*) over w, sum(d.visitors) over w, sum(d.guide_requests) over w,
      sum(d.checkout_clicks) over w
    from insight_campaign_daily d
    join insight_campaign_keys k using (source, medium, campaign, channel)
    window w as (partition by k.id order by d.day)`.execute(trx);
  await keepKeyTotals(trx, sql`select id from insight_campaign_keys`);
  await sql`
    insert into insight_campaign_day_totals (day, visitors, pageviews)
    select day, sum(visitors), sum(pageviews) from insight_campaign_daily group by day`.execute(
    trx,
  );
}

/**
 * Copies onto each key of `keys` (a query of key ids) its last running totals, those through its
 * last day (migration 0023): a range ending on or after that day reads them from the key.
 */
async function keepKeyTotals(trx: Kysely<Database>, keys: RawBuilder<unknown>): Promise<void> {
  await sql`
    update insight_campaign_keys k
    set days = r.days, visitors = r.visitors, guide_requests = r.guide_requests,
      checkout_clicks = r.checkout_clicks
    from insight_campaign_running r
    where k.id in (${keys}) and r.key_id = k.id
      and r.day = (select max(l.day) from insight_campaign_running l where l.key_id = k.id)`.execute(
    trx,
  );
}
