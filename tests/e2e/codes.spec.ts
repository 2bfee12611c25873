// Discount codes (DESIGN.md "Prices and promotions") in a real browser against the built server:
// the owner adds one in Admin → Store → Codes, /?code=… shows its price struck from the regular
// one with its end, the buy button applies it to the Checkout Session, and a code at its limit or
// past its end is refused with its reason on the page.
import type { Locator, Page } from '@playwright/test';
import { CODES_PATH } from '../../src/shared/codes/codes-api';
import { CHECKOUT_PATH } from '../../src/shared/orders/checkout-api';
import { startStripeApiServer, type StripeApiServer } from '../support/stripe-api-server';
import {
  checkoutSession,
  signedEvent,
  stripeEvent,
  TEST_WEBHOOK_SECRET,
} from '../support/stripe-events';
import { adminTest } from './admin-fixtures';
import { expect } from './fixtures';
import { expectNoViolations, stubExternalSite } from './support';

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
// A visitor far from UTC: the code's end is rewritten in their zone after hydration.
test.use({ timezoneId: 'America/New_York' });
test.afterAll(async () => {
  await stripeApi?.close();
});

const CHECKOUT_HOST = 'https://checkout.stripe.test';

// SHOTS_DIR=/tmp/shots node scripts/e2e.mjs tests/e2e/codes.spec.ts
async function shoot(page: Page, dir: string, name: string, target?: Locator) {
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: width === 375 ? 812 : 800 });
    await target?.scrollIntoViewIfNeeded();
    await page.evaluate(
      () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
    );
    await page.screenshot({ path: `${dir}/${name}-${width}.png` });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(width);
  }
}

const hydrated = (page: Page) =>
  page.waitForFunction(() =>
    Object.keys(document.getElementById('root') ?? {}).some((key) =>
      key.startsWith('__reactContainer'),
    ),
  );

test('the owner adds a code; /?code= shows its price and end, and the checkout applies it', async ({
  page,
  browser,
  world,
}, testInfo) => {
  test.setTimeout(120_000);
  const dir = process.env.SHOTS_DIR ?? testInfo.outputPath('shots');
  await page.goto('/#/admin/store');
  const codes = page.getByRole('region', { name: 'Codes' });
  await codes.getByLabel('Code', { exact: true }).fill('spring');
  await codes.getByLabel('Percent', { exact: true }).fill('20');
  await codes.getByLabel('Maximum uses (optional)').fill('100');
  await codes.getByLabel('Ends (optional)').fill('2031-12-01T18:00');
  await codes.getByRole('button', { name: 'Add code' }).click();
  await expect(codes.getByRole('status')).toHaveText('Code SPRING saved.');
  const row = codes.getByRole('row', { name: /SPRING/ });
  await expect(row).toContainText('20% off');
  await expect(row).toContainText('0 of 100');
  await expect(row).toContainText('Active');
  expect([...stripeApi!.promotionCodes.values()].map((code) => code.code)).toEqual(['SPRING']);
  await codes.scrollIntoViewIfNeeded();
  await expectNoViolations(page, { frames: false });
  await shoot(page, dir, 'admin-codes', codes);

  // A visitor's browser, without the owner's session.
  const context = await browser.newContext({
    baseURL: world.server.url,
    storageState: { cookies: [], origins: [] },
    timezoneId: 'America/New_York',
  });
  await stubExternalSite(context, CHECKOUT_HOST);
  const visitor = await context.newPage();
  // Entered in New York: 18:00 EST is 23:00 UTC, as the server writes it.
  const served = (await (await visitor.request.get('/?code=spring')).text()).replace(
    /<!-- -->/g,
    '',
  );
  expect(served).toContain('Code SPRING applied: 20% off.');
  expect(served).toContain(
    'Code SPRING ends <time dateTime="2031-12-01T23:00:00.000Z">Dec 1, 2031, 11:00 PM UTC</time>',
  );
  await visitor.goto('/?code=spring');
  const hero = visitor.locator('#hero');
  await expect(hero.getByText('$21.60', { exact: true })).toBeVisible();
  await expect(hero.locator('s')).toHaveText('$27');
  await expect(hero.getByTestId('code-notice')).toHaveText('Code SPRING applied: 20% off.');
  await expect(hero.getByTestId('sale-end')).toHaveText(
    'Code SPRING ends Dec 1, 2031, 6:00 PM EST',
  );
  await expectNoViolations(visitor);
  await shoot(visitor, dir, 'home-code', hero);

  await visitor.setViewportSize({ width: 1280, height: 800 });
  await hydrated(visitor);
  const sent = visitor.waitForRequest((request) => request.url().endsWith(CHECKOUT_PATH));
  await hero.getByRole('link', { name: 'Download Now – Just $21.60' }).click();
  expect((await sent).postDataJSON()).toMatchObject({ code: 'SPRING' });
  await visitor.waitForURL(new RegExp(`^${CHECKOUT_HOST}/`));
  const fields = stripeApi!.created.at(-1)!;
  expect(fields['metadata[discount_code]']).toBe('SPRING');
  expect(fields['discounts[0][promotion_code]']).toBe(
    [...stripeApi!.promotionCodes.values()][0]!.id,
  );
  await context.close();
});

test('a code at its maximum uses or past its end is refused on the page, with the regular price', async ({
  page,
  world,
}) => {
  test.setTimeout(90_000);
  const headers = { origin: world.origin };
  const once = await world.request.post(CODES_PATH, {
    headers,
    data: { code: 'ONCE', amountOffCents: 500, maxUses: 1, active: true },
  });
  expect(once.status(), await once.text()).toBe(201);
  const old = await world.request.post(CODES_PATH, {
    headers,
    data: {
      code: 'OLD',
      percentOff: 10,
      startsAt: '2026-01-01T00:00:00Z',
      endsAt: '2026-02-01T12:00:00Z',
      active: true,
    },
  });
  expect(old.status(), await old.text()).toBe(201);

  await page.goto('/?code=ONCE');
  await expect(page.locator('#hero').getByText('$22', { exact: true })).toBeVisible();
  // One buyer uses it: the checkout applies it and the signed webhook counts the paid order.
  const started = await world.request.post(CHECKOUT_PATH, { headers, data: { code: 'ONCE' } });
  expect(started.status(), await started.text()).toBe(200);
  const session = [...stripeApi!.sessions.values()].at(-1) as {
    id: string;
    metadata: Record<string, string>;
  };
  const { payload, headers: signed } = signedEvent(
    stripeEvent('checkout.session.completed', {
      ...checkoutSession({ id: session.id, metadata: session.metadata, amount_total: 2200 }),
      amount_subtotal: 2700,
      total_details: { amount_discount: 500, amount_tax: 0, amount_shipping: 0 },
    }),
  );
  const webhook = await world.request.post('/api/webhooks/stripe', {
    headers: signed,
    data: payload,
  });
  expect(webhook.status(), await webhook.text()).toBe(200);

  await page.goto('/?code=ONCE');
  const hero = page.locator('#hero');
  await expect(hero.getByTestId('code-notice')).toHaveText(
    'The code ONCE has been used as many times as it can be.',
  );
  await expect(hero.getByText('$27', { exact: true })).toBeVisible();
  // The page's own former price again, not the code's.
  await expect(hero.locator('s')).toHaveText('$89');
  await page.goto('/?code=OLD');
  await expect(hero.getByTestId('code-notice')).toHaveText(
    'The code OLD ended on Feb 1, 2026, 12:00 PM UTC.',
  );
  await expectNoViolations(page);

  await page.goto('/#/admin/store');
  const row = page.getByRole('region', { name: 'Codes' }).getByRole('row', { name: /ONCE/ });
  await expect(row).toContainText('1 of 1');
  await expect(row).toContainText('$22.00');
});
