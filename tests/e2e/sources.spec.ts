// Sources and campaigns (DESIGN.md "Sources and campaigns") in a real browser against the built
// server: a visit tagged ?utm_source=ig&utm_campaign=spring sends its source with each event
// and to the checkout, writes nothing to cookies or storage, and a signed webhook for that
// Checkout Session shows one purchase under ig / spring in Admin → Insights.
import type { Page } from '@playwright/test';
import { CHECKOUT_PATH } from '../../src/shared/orders/checkout-api';
import { EVENTS_PATH } from '../../src/shared/insights/insight-events';
import type { InsightSources } from '../../src/shared/insights/insights-api';
import { startStripeApiServer, type StripeApiServer } from '../support/stripe-api-server';
import {
  checkoutSession,
  signedEvent,
  stripeEvent,
  TEST_WEBHOOK_SECRET,
} from '../support/stripe-events';
import { adminTest } from './admin-fixtures';
import { expect } from './fixtures';
import { expectNoViolations, sendGlobalPrivacyControl, stubExternalSite } from './support';

let stripeApi: StripeApiServer | undefined;

const test = adminTest(
  async () => {
    stripeApi = await startStripeApiServer();
    return {
      STRIPE_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
      STRIPE_SECRET_KEY: 'sk_test_local',
      STRIPE_API_URL: stripeApi.url,
    };
  },
  async () => ({}),
);
test.describe.configure({ mode: 'serial' });
test.afterAll(async () => {
  await stripeApi?.close();
});

const CHECKOUT_HOST = 'https://checkout.stripe.test';

/** The bodies of every event and checkout request the page sends from now on. */
function recordSent(page: Page) {
  const sent: { path: string; body: unknown }[] = [];
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (pathname === EVENTS_PATH || pathname === CHECKOUT_PATH) {
      sent.push({ path: pathname, body: JSON.parse(request.postData() ?? 'null') as unknown });
    }
  });
  return sent;
}

/** Everything the page could have kept: cookies, and both storages' keys and values. */
async function keptOnDevice(page: Page) {
  return {
    cookies: await page.context().cookies(page.url()),
    documentCookie: await page.evaluate(() => document.cookie),
    storage: await page.evaluate(() =>
      [localStorage, sessionStorage].flatMap((store) =>
        Object.keys(store).map((key) => `${key}=${store.getItem(key)}`),
      ),
    ),
  };
}

async function buy(page: Page) {
  // Before the app has hydrated, the link is the plain Payment Link (no source, no session).
  await page.waitForFunction(() =>
    Object.keys(document.getElementById('root') ?? {}).some((key) =>
      key.startsWith('__reactContainer'),
    ),
  );
  await page.getByRole('link', { name: 'Download Now – Just $27' }).first().click();
  await page.waitForURL(new RegExp(`^${CHECKOUT_HOST}/`));
}

test('a tagged visit sends its source with events and to the checkout, keeps nothing, and its purchase shows under it', async ({
  browser,
  world,
}) => {
  // A visitor's browser, without the owner's session.
  const context = await browser.newContext({
    baseURL: world.server.url,
    storageState: { cookies: [], origins: [] },
  });
  await stubExternalSite(context, CHECKOUT_HOST);
  const page = await context.newPage();
  const sent = recordSent(page);
  await page.goto('/?utm_source=IG&utm_campaign=spring&utm_content=Story%20B&fbclid=SECRET_CLICK');
  await expect
    .poll(() => sent)
    .toEqual([
      {
        path: EVENTS_PATH,
        body: {
          name: 'page_view',
          path: '/',
          source: 'ig',
          medium: '',
          campaign: 'spring',
          channel: 'paid',
          content: 'story b',
        },
      },
    ]);
  expect(await keptOnDevice(page)).toEqual({ cookies: [], documentCookie: '', storage: [] });

  await buy(page);
  const checkout = sent.find((request) => request.path === CHECKOUT_PATH);
  expect(checkout?.body).toEqual({
    ...{ source: 'ig', medium: '', campaign: 'spring', channel: 'paid' },
    content: 'story b',
  });
  expect(JSON.stringify(sent)).not.toContain('SECRET_CLICK');
  await context.close();

  // Stripe's webhook for that session, signed, as it would arrive once paid.
  const created = [...stripeApi!.sessions.values()].at(-1) as {
    id: string;
    metadata: Record<string, string>;
  };
  expect(created.metadata).toMatchObject({
    utm_source: 'ig',
    utm_campaign: 'spring',
    channel: 'paid',
    utm_content: 'story b',
  });
  const { payload, headers } = signedEvent(
    stripeEvent(
      'checkout.session.completed',
      checkoutSession({ id: created.id, metadata: created.metadata }),
    ),
  );
  const webhook = await world.request.post('/api/webhooks/stripe', { headers, data: payload });
  expect(webhook.status(), await webhook.text()).toBe(200);

  const today = new Date().toISOString().slice(0, 10);
  const answer = (await (
    await world.request.get(`/api/admin/insights/sources?from=${today}&to=${today}`)
  ).json()) as InsightSources;
  expect(answer.rows).toEqual([
    {
      source: 'ig',
      medium: '',
      campaign: 'spring',
      channel: 'paid',
      visitors: 1,
      guideRequests: 0,
      checkoutClicks: 1,
      purchases: 1,
      revenue: 2700,
    },
  ]);
});

test('with Global Privacy Control nothing is sent, and the checkout gets no source', async ({
  browser,
  world,
}) => {
  const context = await browser.newContext({
    baseURL: world.server.url,
    storageState: { cookies: [], origins: [] },
  });
  await stubExternalSite(context, CHECKOUT_HOST);
  const page = await context.newPage();
  await sendGlobalPrivacyControl(page);
  const sent = recordSent(page);
  await page.goto('/?utm_source=newsletter&utm_campaign=may');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  expect(await keptOnDevice(page)).toEqual({ cookies: [], documentCookie: '', storage: [] });
  await buy(page);
  expect(sent).toEqual([{ path: CHECKOUT_PATH, body: {} }]);
  await context.close();
});

test('Admin → Insights shows sources and campaigns, sorts, filters the chart and downloads CSV; screenshots', async ({
  page,
  consoleErrors,
}, testInfo) => {
  test.setTimeout(180_000);
  const dir = process.env.SHOTS_DIR ?? testInfo.outputPath('shots');
  const shoot = async (name: string) => {
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: width === 375 ? 812 : 800 });
      await page.screenshot({ path: `${dir}/sources-${name}-${width}.png`, fullPage: true });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(width);
      await expectNoViolations(page);
    }
  };

  await page.goto('/#/admin/insights');
  await page.getByRole('link', { name: 'Sources and campaigns' }).click();
  await expect(page).toHaveURL(/#\/admin\/insights\?view=sources$/);
  const sources = page.getByRole('region', { name: 'Sources' });
  await expect(sources.getByRole('rowheader', { name: 'ig' })).toBeVisible();
  const campaigns = page.getByRole('region', { name: 'Campaigns' });
  await expect(campaigns.getByRole('rowheader', { name: 'ig / spring' })).toBeVisible();
  const igRow = sources
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: 'ig' }) });
  await expect(igRow.getByRole('cell')).toHaveText(['Paid', '1', '0', '1', '1', '$27.00', '100%']);

  // Sorting: a heading's button, both ways.
  await sources.getByRole('button', { name: 'Revenue' }).click();
  await expect(sources.locator('th[aria-sort]')).toHaveAttribute('aria-sort', 'descending');
  await sources.getByRole('button', { name: 'Revenue' }).click();
  await expect(sources.locator('th[aria-sort]')).toHaveAttribute('aria-sort', 'ascending');

  // The chart for one source.
  const chart = page.getByRole('region', { name: 'Visitors per day by source' });
  await chart.getByLabel('Source', { exact: true }).selectOption('ig');
  await expect(
    chart.getByRole('img', { name: /of ig from .*1 visitor, 1 page view and 1 purchase/ }),
  ).toBeVisible();

  // CSV.
  const download = page.waitForEvent('download');
  await sources.getByRole('button', { name: 'Download sources as CSV' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^Sources_\d{4}-\d{2}-\d{2}_\d{4}-\d{2}-\d{2}\.csv$/);

  await expect(page.getByRole('region', { name: 'Top entry routes' })).toContainText('/');
  // Headless Chromium names itself HeadlessChrome, which is no browser a visitor uses.
  await expect(page.getByRole('region', { name: 'Browsers and devices' })).toContainText(
    ', desktop',
  );
  await shoot('data');

  // Empty.
  await page.goto('/#/admin/insights?from=2026-01-01&to=2026-01-31&view=sources');
  await expect(sources.getByText('No source in this range yet.')).toBeVisible();
  await shoot('empty');

  // Loading: the sources' answer held back.
  await page.route('**/api/admin/insights/sources?*', () => {});
  await page.goto('/#/admin/insights?from=2026-02-01&to=2026-02-28&view=sources');
  await expect(page.getByText('Loading sources…')).toBeVisible();
  await shoot('loading');
  await page.unrouteAll({ behavior: 'ignoreErrors' });
  expect(consoleErrors).toEqual([]);
});

test('Admin → Orders shows where the buyer came from; screenshots', async ({
  page,
  consoleErrors,
}, testInfo) => {
  const dir = process.env.SHOTS_DIR ?? testInfo.outputPath('shots');
  await page.goto('/#/admin/orders');
  const table = page.getByRole('table', { name: 'Orders, newest first' });
  await expect(table.getByRole('columnheader', { name: 'Source' })).toBeVisible();
  const source = table.getByRole('row').nth(1).getByRole('cell').nth(5);
  await expect(source).toHaveText('igPaidCampaign:springContent:story b');
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: width === 375 ? 812 : 800 });
    await page.screenshot({ path: `${dir}/orders-source-${width}.png`, fullPage: true });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(width);
    if (width === 1280) {
      // The whole table, Actions included, fits a desktop screen without its own scrolling.
      const group = page.getByRole('group', { name: 'Orders table' });
      expect(await group.evaluate((node) => node.scrollWidth - node.clientWidth)).toBe(0);
    }
    await expectNoViolations(page);
  }
  expect(consoleErrors).toEqual([]);
});
