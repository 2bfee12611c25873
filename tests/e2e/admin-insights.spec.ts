// The owner's Insights page (DESIGN.md "Insights") against the built server: visits posted to
// the collector's endpoint and a purchase from Stripe's signed webhook show up as totals and in
// the funnel; the range lives in the address; the page is a chunk visitors never load.
import type { APIRequestContext, Page } from '@playwright/test';
import { EVENTS_PATH, type InsightEventName } from '../../src/shared/insights/insight-events';
import type { Insights } from '../../src/shared/insights/insights-api';
import {
  checkoutSession,
  signedEvent,
  stripeEvent,
  TEST_WEBHOOK_SECRET,
} from '../support/stripe-events';
import { adminTest } from './admin-fixtures';
import { expect } from './fixtures';
import { expectNoViolations } from './support';

const test = adminTest({ STRIPE_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET }, async () => ({}));
test.describe.configure({ mode: 'serial' });

const today = () => new Date().toISOString().slice(0, 10);

/** One event from the collector, sent by the browser whose user agent is `agent`. */
async function sendEvent(
  request: APIRequestContext,
  agent: string,
  name: InsightEventName,
  path = '/',
) {
  const response = await request.post(EVENTS_PATH, {
    headers: { 'user-agent': agent, 'content-type': 'text/plain;charset=UTF-8' },
    data: JSON.stringify({ name, path }),
  });
  expect(response.status(), await response.text()).toBe(204);
}

/** The figure under a total's label. */
const total = (page: Page, label: string) =>
  page
    .getByRole('main')
    .locator('dt', { hasText: new RegExp(`^${label}$`) })
    .locator('+ dd');

const funnelStep = (page: Page, step: string) => page.locator(`li[data-step="${step}"]`);

/** Each step's count and the share of the step before, as shown. */
async function funnel(page: Page) {
  const steps = ['page_view', 'popup_shown', 'guide_requested', 'checkout_click', 'purchase'];
  return Promise.all(
    steps.map(async (step) => {
      const row = funnelStep(page, step);
      const share = row.getByTestId('funnel-share');
      return [
        await row.getByTestId('funnel-count').textContent(),
        (await share.count()) > 0 ? await share.textContent() : null,
      ];
    }),
  );
}

test('counts the visitors, page views, funnel and purchase of today, and follows the range', async ({
  page,
  world,
}) => {
  // Three browsers: one goes all the way to the checkout, one sees the popup, one only reads.
  await sendEvent(world.request, 'Browser A', 'page_view');
  await sendEvent(world.request, 'Browser A', 'popup_shown');
  await sendEvent(world.request, 'Browser A', 'guide_requested');
  await sendEvent(world.request, 'Browser A', 'checkout_click');
  await sendEvent(world.request, 'Browser B', 'page_view');
  await sendEvent(world.request, 'Browser B', 'popup_shown');
  await sendEvent(world.request, 'Browser C', 'page_view');
  await sendEvent(world.request, 'Browser C', 'page_view', '/privacy-policy');
  // And Stripe confirms one paid order.
  const { payload, headers } = signedEvent(
    stripeEvent('checkout.session.completed', checkoutSession()),
  );
  const webhook = await world.request.post('/api/webhooks/stripe', { headers, data: payload });
  expect(webhook.status(), await webhook.text()).toBe(200);

  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  await page.goto('/#/admin/insights');
  await expect(page.getByRole('heading', { level: 2, name: 'Insights' })).toBeVisible();
  // The page is a chunk of its own, named after it (what the visitors' test looks for).
  expect(scripts.filter((script) => /\/insights-page-[\w-]+\.js$/.test(script))).toHaveLength(1);
  await expect(page.getByRole('button', { name: 'Last 30 days' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await expect(total(page, 'Visitors')).toHaveText('3');
  await expect(total(page, 'Page views')).toHaveText('4');
  await expect(total(page, 'Purchases')).toHaveText('1');
  await expect(total(page, 'Revenue')).toHaveText('$27.00');
  await expect(total(page, 'Conversion rate')).toHaveText('33.3%');
  expect(await funnel(page)).toEqual([
    ['3', null],
    ['2', '66.7%'],
    ['1', '50%'],
    ['1', '100%'],
    ['1', '100%'],
  ]);
  await expect(
    page.getByRole('img', { name: /3 visitors, 4 page views and 1 purchase/ }),
  ).toBeVisible();

  // A range before any visit: the empty state, and the address keeps the range.
  await page.getByLabel('From', { exact: true }).fill('2026-01-01');
  await page.getByLabel('To', { exact: true }).fill('2026-01-31');
  await page.getByRole('button', { name: 'Show' }).click();
  await expect(page).toHaveURL(/#\/admin\/insights\?from=2026-01-01&to=2026-01-31$/);
  await expect(page.getByText('No visits in this range yet')).toBeVisible();
  await expect(total(page, 'Visitors')).toHaveText('0');
  await expect(total(page, 'Conversion rate')).toHaveText('—');
  expect((await funnel(page)).map(([, share]) => share)).toEqual([null, '—', '—', '—', '—']);

  // Back to the quick range with today in it.
  await page.getByRole('button', { name: 'Last 7 days' }).click();
  await expect(page).toHaveURL(new RegExp(`from=\\d{4}-\\d{2}-\\d{2}&to=${today()}$`));
  await expect(total(page, 'Visitors')).toHaveText('3');
  await page.goBack();
  await expect(total(page, 'Visitors')).toHaveText('0');
});

test('the server refuses a range the page would not ask for', async ({ world }) => {
  const response = await world.request.get('/api/admin/insights?from=2026-02-01&to=2026-01-01');
  expect(response.status()).toBe(400);
  const answer = await world.request.get(`/api/admin/insights?from=${today()}&to=${today()}`);
  expect(((await answer.json()) as Insights).days).toHaveLength(1);
});

test('visitors never load the Insights chunk', async ({ browser, world }) => {
  // A visitor's browser: no admin session (the file's contexts start signed in otherwise).
  const context = await browser.newContext({
    baseURL: world.server.url,
    storageState: { cookies: [], origins: [] },
  });
  expect(await context.cookies()).toEqual([]);
  const page = await context.newPage();
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  await page.goto('/');
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  for (const route of ['#/privacy-policy', '#/thank-you', '#/admin/login']) {
    await page.goto(`/${route}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1);
  }
  expect(scripts.length).toBeGreaterThan(0);
  expect(scripts.filter((script) => /\/insights-page-/.test(script))).toEqual([]);
  await context.close();
});

/** A month of made-up days, for pictures with a shape. */
function sampleMonth(): Insights {
  const days = Array.from({ length: 30 }, (_, index) => {
    const date = new Date(Date.UTC(2026, 9, 27 + index)).toISOString().slice(0, 10);
    const visitors = 20 + ((index * 37) % 45) + (index % 7 === 5 ? 30 : 0);
    const purchases = index % 6 === 2 ? 1 + (index % 2) : 0;
    return {
      date,
      visitors,
      pageviews: Math.round(visitors * 1.8),
      purchases,
      revenue: purchases * 2700,
    };
  });
  const visitors = days.reduce((sum, day) => sum + day.visitors, 0);
  const purchases = days.reduce((sum, day) => sum + day.purchases, 0);
  return {
    from: days[0]!.date,
    to: days.at(-1)!.date,
    currency: 'usd',
    days,
    funnel: [
      { step: 'page_view', visitors },
      { step: 'popup_shown', visitors: Math.round(visitors * 0.46) },
      { step: 'guide_requested', visitors: Math.round(visitors * 0.09) },
      { step: 'checkout_click', visitors: Math.round(visitors * 0.05) },
      { step: 'purchase', visitors: purchases },
    ],
  };
}

// Pictures of each state at both widths, for a person to look at:
// SHOTS_DIR=/tmp/shots npm run test:e2e -- admin-insights
test('screenshots of the Insights page in every state, without axe-core violations', async ({
  page,
  consoleErrors,
}, testInfo) => {
  const dir = process.env.SHOTS_DIR ?? testInfo.outputPath('shots');
  test.setTimeout(180_000);
  const shoot = async (name: string, check = false) => {
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: width === 375 ? 812 : 800 });
      await page.screenshot({ path: `${dir}/${name}-${width}.png`, fullPage: true });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(width);
      if (check) await expectNoViolations(page);
    }
  };
  const answer = (reply: { status: number; json: unknown }) =>
    page.route('**/api/admin/insights?*', (route) => route.fulfill(reply));

  await answer({ status: 200, json: sampleMonth() });
  await page.goto('/#/admin/insights?from=2026-10-27&to=2026-11-25');
  await expect(page.getByRole('img', { name: /busiest day/ })).toBeVisible();
  await shoot('month', true);
  await page.getByText('The figures of each day').click();
  await shoot('month-table', true);
  await page.unrouteAll();

  await page.goto('/#/admin/insights?from=2026-11-25&to=2026-11-01');
  await expect(page.getByRole('alert')).toContainText(
    'The start date must not be after the end date.',
  );
  await shoot('bad-range');

  await answer({
    status: 400,
    json: { error: 'Bad Request', message: 'The range may not end after today.' },
  });
  await page.goto('/#/admin/insights?from=2026-11-01&to=2026-11-02');
  await expect(page.getByRole('alert')).toContainText('The range may not end after today.');
  await shoot('refused');
  await page.unrouteAll();

  await answer({
    status: 503,
    json: { error: 'Service Unavailable', message: 'The database is not reachable.' },
  });
  await page.goto('/#/admin/insights?from=2026-11-01&to=2026-11-03');
  await expect(page.getByRole('button', { name: 'Try again' })).toBeVisible();
  await shoot('error');
  await page.unrouteAll();
  // The failed requests were logged by the browser; nothing else may be.
  for (const error of consoleErrors) expect(error).toMatch(/status of (400|503)/);
  consoleErrors.length = 0;

  // The three browsers the first test sent, the visitor whose browser read the public pages
  // in the chunk test (its collector counted it), and a range without any.
  await page.goto('/#/admin/insights');
  await expect(total(page, 'Visitors')).toHaveText('4');
  await shoot('seeded', true);
  await page.goto('/#/admin/insights?from=2026-01-01&to=2026-01-31');
  await expect(page.getByText('No visits in this range yet')).toBeVisible();
  await shoot('empty');
});
