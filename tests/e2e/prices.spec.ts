import type { Page } from '@playwright/test';
import { STORE_PATH, STORE_PUBLISH_PATH, type StoreState } from '../../src/shared/store/store-api';
import { adminTest } from './admin-fixtures';
import { expect } from './fixtures';
import { expectNoViolations } from './support';

const test = adminTest({}, async () => ({}));

test.describe.configure({ mode: 'serial' });
// A visitor far from UTC: the sale's end is rewritten in their zone after hydration.
test.use({ timezoneId: 'America/New_York' });

const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });

// SHOTS_DIR=/tmp/shots node scripts/e2e.mjs tests/e2e/prices.spec.ts
async function shoot(page: Page, dir: string, name: string) {
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: width === 375 ? 812 : 800 });
    await page.evaluate(
      () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
    );
    await page.screenshot({
      path: `${dir}/${name}-${width}.png`,
      fullPage: width === 1280 ? false : false,
    });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(width);
  }
}

test('the owner sets a sale on the Store page; the page shows it, its end in the visitor’s zone, and the warning', async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  const dir = process.env.SHOTS_DIR ?? testInfo.outputPath('shots');
  await page.goto('/#/admin/store');
  await expect(field(page, 'Price')).toHaveValue('27');
  // The seed's $89 was never charged: the Store page says so under every PRICE_RULES.
  const history = page.getByTestId('price-history');
  await expect(history).toContainText('PRICE_RULES=off');
  await expect(history.getByRole('status')).toContainText(
    'The former price $89.00 was never charged',
  );

  await field(page, 'Former price (optional)').fill('');
  await field(page, 'Sale price (optional)').fill('19');
  await field(page, 'Sale ends').fill('2031-12-01T18:00');
  await expect(page.getByText('Shown as $27.')).toBeVisible();
  await expect(
    page.getByText(/On sale at \$19 until Dec 1, 2031.*6:00.PM, then \$27 again\./),
  ).toBeVisible();
  await page.getByRole('button', { name: 'Publish' }).click();
  await expect(page.getByText(/is live/)).toBeVisible();
  // The regular $27 is struck through during the sale, but was live only since the start.
  await expect(history.getByRole('status')).toContainText(
    '$27.00 was live only 0 of the last 90 days',
  );
  await field(page, 'Sale price (optional)').scrollIntoViewIfNeeded();
  await expectNoViolations(page, { frames: false });
  await shoot(page, dir, 'store-sale');

  // Entered in New York: 18:00 EST is 23:00 UTC, as the server writes it.
  const served = (await (await page.request.get('/')).text()).replace(/<!-- -->/g, '');
  expect(served).toContain(
    'Sale ends <time dateTime="2031-12-01T23:00:00.000Z">Dec 1, 2031, 11:00 PM UTC</time>',
  );
  await page.goto('/');
  const hero = page.locator('#hero');
  await expect(hero.getByText('$19', { exact: true })).toBeVisible();
  await expect(hero.locator('s')).toHaveText('$27');
  await expect(hero.getByTestId('sale-end')).toHaveText('Sale ends Dec 1, 2031, 6:00 PM EST');
  await expectNoViolations(page);
  await shoot(page, dir, 'home-sale');
});

test('at the sale’s end the open page says so, and the next visit and checkout have the regular price', async ({
  page,
  world,
}) => {
  test.setTimeout(90_000);
  const headers = { origin: world.origin };
  const { draft } = (await (await world.request.get(STORE_PATH)).json()) as StoreState;
  const endsAt = new Date(Date.now() + 6_000).toISOString();
  const content = {
    ...draft,
    product: { ...draft.product, priceCents: 2700, sale: { priceCents: 1500, endsAt } },
  };
  expect((await world.request.put(STORE_PATH, { headers, data: { content } })).status()).toBe(200);
  expect((await world.request.post(STORE_PUBLISH_PATH, { headers })).status()).toBe(201);
  await page.goto('/');
  const hero = page.locator('#hero');
  await expect(hero.getByText('$15', { exact: true })).toBeVisible();
  const end = hero.getByTestId('sale-end');
  await expect(end).toContainText('Sale ends');
  const before = await end.boundingBox();
  await expect(end).toHaveText('This sale has ended: the regular price applies.', {
    timeout: 15_000,
  });
  // Its line keeps its place: nothing below moves.
  expect((await end.boundingBox())?.y).toBe(before?.y);
  // Within 5 s of the end the server serves the regular price.
  await expect
    .poll(async () => (await (await page.request.get('/')).text()).includes('Sale ends'), {
      timeout: 5_000,
    })
    .toBe(false);
  await page.reload();
  await expect(hero.getByText('$27', { exact: true })).toBeVisible();
  await expect(hero.getByTestId('sale-end')).toHaveCount(0);
});
