import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { beforeAll, beforeEach, expect, it } from 'vitest';
import { EVENT_BODY_LIMIT, EVENTS_PATH } from '../../shared/insights/insight-events';
import { insightsPath, type Insights } from '../../shared/insights/insights-api';
import { OWNER, useOrdersApp } from '../../../tests/support/orders-app';
import { placesHolding } from '../../../tests/support/places-holding';
import { freshIp, signIn } from '../../../tests/support/sign-in';
import { charge, checkoutSession, stripeEvent } from '../../../tests/support/stripe-events';
import { buildTestApp } from '../../../tests/support/test-app';
import { describeEachDatabase } from '../../../tests/support/test-database';
import { utcDay } from '../../shared/utc-days';
import { dailyVisitor } from './daily-visitor';
import { periodicTasks } from '../periodic-tasks';
import { runExclusively } from '../periodic/periodic-work';
import { insightsRollup, rollUpInsights } from './insights-rollup';

const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/131.0 Safari/537.36';
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';

const DAY_MS = 86_400_000;
const daysAgo = (days: number, from = new Date()) =>
  utcDay(new Date(from.getTime() - days * DAY_MS));

describeEachDatabase('insights', (use) => {
  const orderApp = useOrdersApp(use);
  let cookie: string;

  beforeAll(async () => {
    cookie = await signIn(orderApp.app, orderApp.sink, OWNER);
  });

  beforeEach(async () => {
    const { db } = use();
    await db.deleteFrom('insight_events').execute();
    await db.deleteFrom('insight_daily').execute();
    await db.deleteFrom('insight_salts').execute();
  });

  /** What sendBeacon sends: a JSON text body as text/plain. */
  const beacon = (
    body: unknown,
    options: {
      ip?: string;
      userAgent?: string;
      headers?: Record<string, string>;
      app?: FastifyInstance;
    } = {},
  ) =>
    (options.app ?? orderApp.app).inject({
      method: 'POST',
      url: EVENTS_PATH,
      remoteAddress: options.ip ?? '198.51.100.7',
      headers: {
        'content-type': 'text/plain;charset=UTF-8',
        'user-agent': options.userAgent ?? CHROME,
        ...options.headers,
      },
      payload: typeof body === 'string' ? body : JSON.stringify(body),
    });

  const stored = () => use().db.selectFrom('insight_events').selectAll().orderBy('id').execute();

  const insights = async (range?: { from: string; to: string }) => {
    const response = await orderApp.app.inject({
      method: 'GET',
      url: range ? insightsPath(range) : '/api/admin/insights',
      headers: { cookie },
    });
    expect(response.statusCode).toBe(200);
    return response.json<Insights>();
  };
  const today = () => utcDay();
  const todayOnly = () => ({ from: today(), to: today() });

  it('stores an event with a daily visitor hash and answers 204 without a cookie', async () => {
    const response = await beacon({ name: 'page_view', path: '/' });
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    expect(response.headers['set-cookie']).toBeUndefined();
    expect(response.headers['cache-control']).toBe('no-store');
    const rows = await stored();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ name: 'page_view', path: '/' });
    expect(rows[0]!.visitor).toMatch(/^[0-9a-f]{32}$/);
  });

  it('also takes a JSON body sent as application/json', async () => {
    const response = await orderApp.app.inject({
      method: 'POST',
      url: EVENTS_PATH,
      headers: { 'user-agent': CHROME },
      payload: { name: 'checkout_click', path: '/' },
    });
    expect(response.statusCode).toBe(204);
    expect((await stored()).map((row) => row.name)).toEqual(['checkout_click']);
  });

  it('counts one browser once a day, and another address or browser as another visitor', async () => {
    await beacon({ name: 'page_view', path: '/' });
    await beacon({ name: 'page_view', path: '/privacy-policy' });
    await beacon({ name: 'popup_shown', path: '/' });
    await beacon({ name: 'page_view', path: '/' }, { userAgent: FIREFOX });
    await beacon({ name: 'page_view', path: '/' }, { ip: '198.51.100.8' });
    const visitors = new Set((await stored()).map((row) => row.visitor));
    expect(visitors.size).toBe(3);

    const answer = await insights(todayOnly());
    expect(answer.days).toEqual([
      { date: today(), visitors: 3, pageviews: 4, purchases: 0, revenue: 0 },
    ]);
    expect(answer.funnel).toEqual([
      { step: 'page_view', visitors: 3 },
      { step: 'popup_shown', visitors: 1 },
      { step: 'guide_requested', visitors: 0 },
      { step: 'checkout_click', visitors: 0 },
      { step: 'purchase', visitors: 0 },
    ]);
  });

  it('stores neither the address nor the user agent anywhere', async () => {
    const ip = '203.0.113.219';
    const userAgent = `${CHROME} UniqueBrowserMarker/77`;
    for (const name of ['page_view', 'popup_shown', 'checkout_click'])
      expect((await beacon({ name, path: '/' }, { ip, userAgent })).statusCode).toBe(204);
    await orderApp.app.inject({
      method: 'GET',
      url: '/',
      remoteAddress: ip,
      headers: { 'user-agent': userAgent },
    });
    await rollUpInsights(use().db);
    expect(await stored()).toHaveLength(3);
    expect(await placesHolding(use().db, ip)).toEqual([]);
    expect(await placesHolding(use().db, 'UniqueBrowserMarker')).toEqual([]);
  });

  it('shares one salt between instances, and changes it every day', async () => {
    // Two instances started afresh on one database: the second finds the salt the first made.
    const instances = [await buildTestApp(use()), await buildTestApp(use())];
    try {
      await beacon({ name: 'page_view', path: '/' }, { app: instances[0] });
      await beacon({ name: 'popup_shown', path: '/' }, { app: instances[1] });
      const [first, other] = await stored();
      expect(other!.visitor).toBe(first!.visitor);
    } finally {
      await Promise.all(instances.map((instance) => instance.close()));
    }
    const visitorOf = dailyVisitor(use().db);
    const sameDay = await visitorOf('2026-11-01', '198.51.100.7', CHROME);
    expect(await visitorOf('2026-11-01', '198.51.100.7', CHROME)).toBe(sameDay);
    expect(await visitorOf('2026-11-02', '198.51.100.7', CHROME)).not.toBe(sameDay);
    const salts = await use()
      .db.selectFrom('insight_salts')
      .select('salt')
      .where('day', 'in', ['2026-11-01', '2026-11-02'])
      .execute();
    expect(salts).toHaveLength(2);
    expect(Buffer.from(salts[0]!.salt).equals(Buffer.from(salts[1]!.salt))).toBe(false);
  });

  it('forgets a salt in memory once its day is over', async () => {
    const visitorOf = dailyVisitor(use().db);
    const before = await visitorOf('2026-10-01', '198.51.100.7', CHROME);
    // The day is long over: the salt leaves memory at once, and the roll-up deletes its row.
    await new Promise((resolve) => setTimeout(resolve, 10));
    await rollUpInsights(use().db);
    expect(await visitorOf('2026-10-01', '198.51.100.7', CHROME)).not.toBe(before);
    // Today's is kept: the same browser is the same visitor all day.
    const now = await visitorOf(today(), '198.51.100.7', CHROME);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(await visitorOf(today(), '198.51.100.7', CHROME)).toBe(now);
  });

  it('ignores an event sent under Global Privacy Control, and crawlers', async () => {
    const gpc = await beacon({ name: 'page_view', path: '/' }, { headers: { 'sec-gpc': '1' } });
    expect(gpc.statusCode).toBe(204);
    const bot = await beacon(
      { name: 'page_view', path: '/' },
      { userAgent: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' },
    );
    expect(bot.statusCode).toBe(204);
    expect((await beacon({ name: 'page_view', path: '/' }, { userAgent: '' })).statusCode).toBe(
      204,
    );
    expect(await stored()).toEqual([]);
    expect(await use().db.selectFrom('insight_salts').selectAll().execute()).toEqual([]);
  });

  it('refuses unknown names and paths, bad JSON and oversized bodies, storing nothing', async () => {
    const refusals: [unknown, number][] = [
      [{ name: 'purchase', path: '/' }, 400],
      [{ name: 'page_view', path: '/admin' }, 400],
      [{ name: 'page_view', path: '/?x=1' }, 400],
      [{ name: 'page_view' }, 400],
      [{ name: 'page_view', path: '/', extra: 'x'.repeat(EVENT_BODY_LIMIT) }, 413],
      ['{"name":', 400],
      ['', 400],
      [[], 400],
    ];
    for (const [body, status] of refusals) {
      const response = await beacon(body);
      expect(response.statusCode, JSON.stringify(body).slice(0, 40)).toBe(status);
      expect(response.json()).toMatchObject({ message: expect.any(String) });
      expect(response.headers['set-cookie']).toBeUndefined();
    }
    expect(await stored()).toEqual([]);
  });

  it('limits a flood from one address to 60 events a minute', async () => {
    const ip = freshIp();
    const answers: number[] = [];
    for (let i = 0; i < 65; i += 1)
      answers.push((await beacon({ name: 'page_view', path: '/' }, { ip })).statusCode);
    expect(answers.filter((status) => status === 204)).toHaveLength(60);
    expect(answers.slice(60)).toEqual([429, 429, 429, 429, 429]);
    expect(await stored()).toHaveLength(60);
    // Another address is not held back.
    expect((await beacon({ name: 'page_view', path: '/' }, { ip: freshIp() })).statusCode).toBe(
      204,
    );
  });

  it('counts a purchase only when Stripe confirmed it, with its revenue, and not once refunded', async () => {
    await beacon({ name: 'page_view', path: '/' });
    await beacon({ name: 'checkout_click', path: '/' });
    const kept = await orderApp.pay();
    const refunded = await orderApp.pay();
    await orderApp.deliver(stripeEvent('charge.refunded', charge(refunded.payment_intent, 2700)));
    // Not confirmed as paid: never counted.
    await orderApp.pay(checkoutSession({ payment_status: 'unpaid' }));
    expect((await orderApp.orders()).map((order) => order.status).sort()).toEqual([
      'paid',
      'pending',
      'refunded',
    ]);
    expect(kept.amount_total).toBe(2700);

    const answer = await insights(todayOnly());
    expect(answer.currency).toBe('usd');
    expect(answer.days).toEqual([
      { date: today(), visitors: 1, pageviews: 1, purchases: 1, revenue: 2700 },
    ]);
    expect(answer.funnel.map((step) => step.visitors)).toEqual([1, 0, 0, 1, 1]);
  });

  it('rolls raw events up into daily totals and deletes events and salts past their time', async () => {
    const { db } = use();
    const now = new Date();
    const visitorOf = dailyVisitor(db);
    for (const [ago, visitors] of [
      [4, 1],
      [3, 2],
      [2, 3],
      [1, 2],
      [0, 1],
    ] as const) {
      const day = daysAgo(ago, now);
      for (let v = 0; v < visitors; v += 1) {
        const visitor = await visitorOf(day, `198.51.100.${v}`, CHROME);
        await db
          .insertInto('insight_events')
          .values([
            { day, name: 'page_view', path: '/', visitor },
            { day, name: 'page_view', path: '/contact-us', visitor },
          ])
          .execute();
      }
    }
    const range = { from: daysAgo(4, now), to: today() };
    const before = await insights(range);
    expect(before.days.map((day) => [day.visitors, day.pageviews])).toEqual([
      [1, 2],
      [2, 4],
      [3, 6],
      [2, 4],
      [1, 2],
    ]);

    await rollUpInsights(db, now);
    const days = await sql<{ day: string }>`
      select distinct to_char(day, 'YYYY-MM-DD') as day from insight_events order by 1`.execute(db);
    expect(days.rows.map((row) => row.day)).toEqual([daysAgo(2, now), daysAgo(1, now), today()]);
    const salts = await sql<{ day: string }>`
      select to_char(day, 'YYYY-MM-DD') as day from insight_salts`.execute(db);
    expect(salts.rows.map((row) => row.day)).toEqual([today()]);
    // The answer is the same from the roll-up as it was from the raw events.
    expect(await insights(range)).toEqual(before);

    // Two days later, the last raw events have gone and only the totals remain.
    await rollUpInsights(db, new Date(now.getTime() + 3 * DAY_MS));
    expect(await stored()).toEqual([]);
    expect(await insights(range)).toEqual(before);
  });

  it('is rolled up by the periodic worker', async () => {
    const { db } = use();
    await beacon({ name: 'page_view', path: '/' });
    const index = periodicTasks.indexOf(insightsRollup);
    expect(index).toBeGreaterThanOrEqual(0);
    expect(await runExclusively(db, index, periodicTasks[index]!.run)).toBe(true);
    const daily = await sql<{ day: string; name: string; visitors: number; events: number }>`
      select to_char(day, 'YYYY-MM-DD') as day, name, visitors, events from insight_daily`.execute(
      db,
    );
    expect(daily.rows).toEqual([{ day: today(), name: 'page_view', visitors: 1, events: 1 }]);
  });

  it('answers every day of the range, the last 30 days by default, and refuses bad ranges', async () => {
    const answer = await insights();
    expect(answer.days).toHaveLength(30);
    expect(answer.to).toBe(today());
    expect(answer.from).toBe(daysAgo(29));
    expect(answer.days.every((day) => day.visitors === 0 && day.revenue === 0)).toBe(true);

    for (const [query, message] of [
      ['from=2026-02-30&to=2026-03-01', /2026-02-30 is not a date/],
      ['from=2026-03-02&to=2026-03-01', /from is after to/],
      ['from=2024-01-01&to=2026-01-01', /at most 366 days/],
      ['from=yesterday', /YYYY-MM-DD/],
      ['from=2026-01-01&from=2026-01-02', /Invalid range/],
    ] as const) {
      const response = await orderApp.app.inject({
        method: 'GET',
        url: `/api/admin/insights?${query}`,
        headers: { cookie },
      });
      expect(response.statusCode, query).toBe(400);
      expect(response.json().message, query).toMatch(message);
    }
    expect((await orderApp.app.inject('/api/admin/insights')).statusCode).toBe(401);
  });
});
