// Owner insights from the visitor's side (DESIGN.md "Insights"): real Chromium visits reach
// POST /api/events through the collector, and GET /api/admin/insights counts them.
import type { Browser, Page } from '@playwright/test';
import { EVENTS_PATH, insightPaths } from '../../src/shared/insights/insight-events';
import { insightsPath, type Insights } from '../../src/shared/insights/insights-api';
import { utcDay } from '../../src/shared/utc-days';
import {
  checkoutSession,
  signedEvent,
  stripeEvent,
  TEST_WEBHOOK_SECRET,
} from '../support/stripe-events';
import { adminTest, type AdminWorld } from './admin-fixtures';
import { expect } from './fixtures';
import {
  defaultCheckoutUrl,
  recordAnalytics,
  sendGlobalPrivacyControl,
  stubExternalSite,
  suppressPopup,
} from './support';

const test = adminTest({ STRIPE_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET }, async () => ({}));
test.describe.configure({ mode: 'serial' });

const CHROMIUM_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const OTHER_UA =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';

async function today(world: AdminWorld): Promise<Insights> {
  const day = utcDay();
  const response = await world.request.get(insightsPath({ from: day, to: day }));
  expect(response.status()).toBe(200);
  return (await response.json()) as Insights;
}

/** Today's visitors and page views, and the funnel's counts in order. */
async function counts(world: AdminWorld) {
  const answer = await today(world);
  const { visitors, pageviews, purchases, revenue } = answer.days[0]!;
  return {
    visitors,
    pageviews,
    purchases,
    revenue,
    funnel: answer.funnel.map((step) => step.visitors),
  };
}

/**
 * A browser of its own: no admin cookie, its own user agent (the address is the same). The
 * free-guide popup stays away unless `popup`, so each page sends only its page view.
 */
async function visitor(browser: Browser, world: AdminWorld, userAgent: string, popup = false) {
  const context = await browser.newContext({
    baseURL: world.server.url,
    userAgent,
    // Not the file's signed-in owner: a visitor's browser starts with nothing stored.
    storageState: { cookies: [], origins: [] },
  });
  const page = await context.newPage();
  if (!popup) await suppressPopup(page);
  return { context, page };
}

/** The events a page's collector sends, as the browser sent them. */
function beaconsOf(page: Page): string[] {
  const sent: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === EVENTS_PATH) sent.push(request.postData() ?? '');
  });
  return sent;
}

/**
 * Home, then the privacy policy through the footer once the app has started (it starts after
 * the largest paint; a click before that is a plain link, and home's page view is not taken).
 */
async function visitHomeAndPrivacy(page: Page) {
  const analytics = recordAnalytics(page);
  await page.goto('/');
  await expect.poll(() => analytics.some((line) => line.includes('page_view home'))).toBe(true);
  await page.locator('footer').getByRole('link', { name: 'Privacy Policy' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Privacy Policy');
}

test('a visitor is counted once a day, another browser separately, a GPC browser not at all', async ({
  browser,
  world,
}) => {
  expect(await counts(world)).toMatchObject({ visitors: 0, pageviews: 0 });

  const first = await visitor(browser, world, CHROMIUM_UA);
  const sent = beaconsOf(first.page);
  await visitHomeAndPrivacy(first.page);
  await expect.poll(() => sent.length).toBe(2);
  expect(sent.map((body) => JSON.parse(body))).toEqual([
    { name: 'page_view', path: '/' },
    { name: 'page_view', path: '/privacy-policy' },
  ]);
  await expect.poll(() => counts(world)).toMatchObject({ visitors: 1, pageviews: 2 });
  await first.context.close();

  // The same browser again later the same day: a new page view, not a new visitor.
  const again = await visitor(browser, world, CHROMIUM_UA);
  await again.page.goto('/');
  await expect.poll(() => counts(world)).toMatchObject({ visitors: 1, pageviews: 3 });
  await again.context.close();

  const second = await visitor(browser, world, OTHER_UA);
  await second.page.goto('/');
  await expect.poll(() => counts(world)).toMatchObject({ visitors: 2, pageviews: 4 });
  await second.context.close();

  // Global Privacy Control: the page sends nothing at all.
  const private_ = await visitor(browser, world, `${OTHER_UA} Private/1`);
  await sendGlobalPrivacyControl(private_.page);
  const privateSent = beaconsOf(private_.page);
  await visitHomeAndPrivacy(private_.page);
  // A browser whose page does not see the signal but whose requests carry it: the server
  // drops what it sends.
  const headerOnly = await browser.newContext({
    baseURL: world.server.url,
    userAgent: `${OTHER_UA} HeaderOnly/1`,
    storageState: { cookies: [], origins: [] },
    extraHTTPHeaders: { 'Sec-GPC': '1' },
  });
  const headerPage = await headerOnly.newPage();
  await suppressPopup(headerPage);
  const headerSent = beaconsOf(headerPage);
  await visitHomeAndPrivacy(headerPage);
  await expect.poll(() => headerSent.length).toBe(2);
  await headerOnly.close();
  expect(privateSent).toEqual([]);
  await private_.context.close();

  // A counted event after them all: once it is in, theirs would have been too.
  const last = await visitor(browser, world, CHROMIUM_UA);
  await last.page.goto('/#/contact-us');
  await expect.poll(() => counts(world)).toMatchObject({ pageviews: 5 });
  expect(await counts(world)).toMatchObject({ visitors: 2, pageviews: 5 });
  await last.context.close();
});

test('no public route sets a cookie or sends one', async ({ browser, world }) => {
  const { context, page } = await visitor(browser, world, CHROMIUM_UA);
  const setCookies: string[] = [];
  const sentCookies: string[] = [];
  page.on('response', async (response) => {
    const header = await response.headerValue('set-cookie');
    if (header) setCookies.push(`${response.url()}: ${header}`);
  });
  page.on('request', async (request) => {
    const header = await request.headerValue('cookie');
    if (header) sentCookies.push(`${request.url()}: ${header}`);
  });
  const sent = beaconsOf(page);
  // Each route opened, then loaded again, each time until its page view has gone out.
  for (const path of insightPaths) {
    await page.goto(path === '/' ? '/' : `/#${path}`);
    await expect.poll(() => sent.length).toBe(insightPaths.indexOf(path) * 2 + 1);
    await page.reload();
    await expect.poll(() => sent.length).toBe(insightPaths.indexOf(path) * 2 + 2);
  }
  expect(setCookies).toEqual([]);
  expect(sentCookies).toEqual([]);
  expect(await context.cookies()).toEqual([]);
  await context.close();
});

test('the funnel follows a visitor from the popup and the checkout to a purchase Stripe confirmed', async ({
  browser,
  world,
}) => {
  const before = await counts(world);
  const { context, page } = await visitor(browser, world, `${CHROMIUM_UA} Buyer/1`, true);
  await stubExternalSite(context, defaultCheckoutUrl);
  await page.goto('/');
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight / 2));
  const dialog = page.getByRole('dialog', { name: 'Free Mindfulness Guide' });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('Your Name *').fill('Bea Buyer');
  await dialog.getByLabel('Your Email *').fill('bea.buyer@example.com');
  await dialog.getByRole('button', { name: 'Get Your Free Guide' }).click();
  await expect(dialog.getByText('Your guide is ready!')).toBeVisible();
  await dialog.getByRole('button', { name: 'Close' }).click();
  await page.evaluate(() => window.scrollTo(0, 0));
  const checkout = context.waitForEvent('page');
  await page.getByRole('link', { name: 'Download Now – Just $27' }).click();
  await (await checkout).close();
  await expect
    .poll(async () => (await counts(world)).funnel)
    .toEqual([
      before.funnel[0]! + 1,
      before.funnel[1]! + 1,
      before.funnel[2]! + 1,
      before.funnel[3]! + 1,
      before.funnel[4]!,
    ]);

  const { payload, headers } = signedEvent(
    stripeEvent('checkout.session.completed', checkoutSession()),
  );
  const delivered = await world.request.post('/api/webhooks/stripe', { headers, data: payload });
  expect(delivered.status()).toBe(200);
  const after = await counts(world);
  expect(after.funnel[4]).toBe(before.funnel[4]! + 1);
  expect(after).toMatchObject({ purchases: before.purchases + 1, revenue: before.revenue + 2700 });
  await context.close();
});
