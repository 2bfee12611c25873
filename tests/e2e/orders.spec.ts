// Verified purchases from the buyer's side and the owner's (DESIGN.md "Selling for real"):
// Stripe's signed webhook, the thank-you page, the emailed links, the download-link page and
// the admin's Orders page, against the built server with STRIPE_WEBHOOK_SECRET set.
import type { APIRequestContext, Page } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { resendLinkSent } from '../../src/client/features/orders/resend-link-form';
import { freePort } from '../support/free-port';
import { startSmtpSink, type SinkMail } from '../support/smtp-sink';
import {
  checkoutSession,
  newSessionId,
  signedEvent,
  stripeEvent,
  TEST_WEBHOOK_SECRET,
  type TestSession,
} from '../support/stripe-events';
import { adminTest } from './admin-fixtures';
import { expect, startServer } from './fixtures';
import { expectNoViolations, recordAnalytics } from './support';

const BUYER = { email: 'ada.buyer@example.com', name: 'Ada Buyer' };
const PURCHASE = '[analytics] conversion purchase {"value":27,"currency":"USD"}';

// The product: random bytes, so a download that matches is this file and nothing else.
const productDir = mkdtempSync(path.join(os.tmpdir(), 'soul-reset-product-'));
const BUNDLE_FILE = path.join(productDir, 'soul-reset-bundle.pdf');
writeFileSync(BUNDLE_FILE, randomBytes(64 * 1024));
const bundle = readFileSync(BUNDLE_FILE);

const serverEnv = {
  STRIPE_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
  BUNDLE_FILE,
  DOWNLOAD_LIMIT: '2',
};

const test = adminTest(serverEnv, async () => ({}));
test.describe.configure({ mode: 'serial' });
test.afterAll(() => rmSync(productDir, { recursive: true, force: true }));

/** Posts one Stripe event about `object`, signed with the endpoint's secret, as Stripe would. */
async function sendEvent(request: APIRequestContext, type: string, object: unknown) {
  const { payload, headers } = signedEvent(stripeEvent(type, object));
  const response = await request.post('/api/webhooks/stripe', { headers, data: payload });
  expect(response.status(), await response.text()).toBe(200);
}

/** A paid Checkout Session of the bundle, bought by BUYER. */
const session = (values: Partial<TestSession> = {}) =>
  checkoutSession({ customer_details: BUYER, ...values });

/** The download link in a buyer's email. */
function linkIn(mail: SinkMail): string {
  const url = /^Download: (\S+)$/m.exec(mail.text)?.[1];
  expect(url, mail.text).toMatch(/\/download\/\S+$/);
  return url!;
}

/** Opens `url`, which answers with an attachment, and resolves with the downloaded bytes. */
async function downloadFrom(page: Page, url: string): Promise<Buffer> {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    // The navigation ends in a download, not a page: Chromium reports it as aborted.
    page.goto(url).catch(() => undefined),
  ]);
  return readFileSync(await download.path());
}

async function shoot(page: Page, name: string, dir: string | undefined) {
  if (!dir) return;
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(width);
    // From the top, so the sticky header is not painted over the middle of the picture.
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: `${dir}/${name}-${width}.png`, fullPage: true });
  }
}

const SHOTS = process.env.SHOTS_DIR;
const heading = (page: Page) => page.getByRole('heading', { level: 1 });
const ordersTable = (page: Page) => page.getByRole('region', { name: 'Order list' });

test('before any order the Orders page says how orders arrive, and shows a load error', async ({
  page,
  consoleErrors,
}) => {
  await page.goto('/#/admin/orders');
  await expect(page.getByRole('heading', { level: 2, name: 'Orders' })).toBeVisible();
  await expect(ordersTable(page).getByText('No orders yet')).toBeVisible();
  await expect(ordersTable(page)).toContainText('once Stripe’s webhook is set up');
  await expect(
    page.getByRole('navigation', { name: 'Admin pages' }).getByRole('link', { name: 'Orders' }),
  ).toHaveAttribute('aria-current', 'page');
  await expectNoViolations(page);
  await shoot(page, 'admin-orders-empty', SHOTS);

  await page.route('**/api/admin/orders?*', (route) =>
    route.fulfill({
      status: 503,
      json: { error: 'Service Unavailable', message: 'The database is not reachable.' },
    }),
  );
  await page.getByRole('button', { name: 'Refresh' }).click();
  await expect(page.getByRole('alert')).toContainText(
    'Could not load the orders: The database is not reachable.',
  );
  await expectNoViolations(page);
  await shoot(page, 'admin-orders-error', SHOTS);
  // The refused request is logged by the browser; nothing else may be.
  expect(consoleErrors.length).toBeGreaterThan(0);
  for (const error of consoleErrors) expect(error).toMatch(/status of 503/);
  consoleErrors.length = 0;
});

test('a plain visit to the thank-you page says where the download is, and records no purchase', async ({
  page,
  world,
}) => {
  // The served page carries neither the seed's thank-you markup nor its public download URL.
  const html = await (await world.request.get('/')).text();
  expect(html).toContain('<template data-route="/privacy-policy">');
  expect(html).not.toContain('data-route="/thank-you"');
  expect(html).not.toContain('/downloads/soul-reset-bundle-sample.pdf');
  expect(html).not.toContain('__DOWNLOAD_URL__');

  // Before the app runs, the route stays hidden: home never shows in its place.
  const blocked = await page.context().newPage();
  await blocked.route('**/assets/*.js', (route) => route.abort());
  await blocked.goto('/#/thank-you');
  await expect(blocked.locator('#root')).toBeHidden();
  await blocked.close();

  const analytics = recordAnalytics(page);
  await page.goto('/#/thank-you');
  await expect(heading(page)).toHaveText('Looking for your download?');
  await expect(page.getByRole('link', { name: 'Download Now' })).toHaveCount(0);
  await expect(page.getByRole('form', { name: 'Request a new download link' })).toBeVisible();
  await expectNoViolations(page);
  expect(analytics).toContain('[analytics] page_view thank_you {}');
  expect(analytics.filter((line) => line.includes('conversion purchase'))).toEqual([]);
});

test('a paid checkout: confirming, then thanks, the masked address and the file', async ({
  page,
  world,
}) => {
  const paidSession = session();
  const id = paidSession.id;
  const analytics = recordAnalytics(page);
  // The Payment Link sends the buyer to /thank-you?session_id=…, which the server hands to
  // the page's route.
  await page.goto(`/thank-you?session_id=${id}`);
  expect(page.url()).toMatch(new RegExp(`/#/thank-you\\?session_id=${id}$`));
  await expect(heading(page)).toHaveText('Confirming your payment…');
  await expect(page.getByRole('status').first()).toHaveText('Confirming your payment…');
  await expectNoViolations(page);
  await shoot(page, 'thank-you-confirming', SHOTS);

  await sendEvent(world.request, 'checkout.session.completed', paidSession);
  await expect(heading(page)).toHaveText('Thank You for Your Purchase!', { timeout: 15_000 });
  await expect(page.getByText('We sent your download link to')).toContainText('a•••@example.com');
  expect(await page.content()).not.toContain(BUYER.email);

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Download Now' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('soul-reset-bundle.pdf');
  expect(readFileSync(await download.path()).equals(bundle)).toBe(true);

  await expectNoViolations(page);
  await shoot(page, 'thank-you-paid', SHOTS);
  expect(analytics.filter((line) => line === PURCHASE)).toHaveLength(1);

  // A reload, or the buyer coming back later, records the purchase no second time.
  await page.reload();
  await expect(heading(page)).toHaveText('Thank You for Your Purchase!');
  expect(analytics.filter((line) => line === '[analytics] page_view thank_you {}')).toHaveLength(2);
  expect(analytics.filter((line) => line === PURCHASE)).toHaveLength(1);
});

test('the emailed link downloads until its limit, then the page explains and a new link is sent', async ({
  page,
  world,
}) => {
  const receipt = await world.sink.waitFor(
    (mail) => mail.envelopeTo.includes(BUYER.email) && /receipt/.test(mail.subject),
  );
  const link = linkIn(receipt);
  expect((await downloadFrom(page, link)).equals(bundle)).toBe(true);
  expect((await downloadFrom(page, link)).equals(bundle)).toBe(true);

  // DOWNLOAD_LIMIT is 2: the third use lands on the download-link page.
  await page.goto(link);
  await expect(page).toHaveURL(/#\/download-link\?reason=used$/);
  await expect(heading(page)).toHaveText('This download link has been used up');

  const form = page.getByRole('form', { name: 'Request a new download link' });
  await form.getByLabel('Email used at checkout').fill('stranger@example.com');
  await form.getByRole('button', { name: 'Send new link' }).click();
  await expect(form.getByRole('status')).toContainText(resendLinkSent('Soul Reset Bundle'));
  await form.getByLabel('Email used at checkout').fill(BUYER.email);
  await form.getByRole('button', { name: 'Send new link' }).click();
  // The same words for the buyer as for the stranger.
  await expect(form.getByRole('status')).toContainText(resendLinkSent('Soul Reset Bundle'));
  await expectNoViolations(page);
  await shoot(page, 'resend-form-sent', SHOTS);

  const fresh = await world.sink.waitFor(
    (mail) => mail.envelopeTo.includes(BUYER.email) && /new download link/.test(mail.subject),
  );
  expect(world.sink.messages.some((mail) => mail.envelopeTo.includes('stranger@example.com'))).toBe(
    false,
  );
  expect((await downloadFrom(page, linkIn(fresh))).equals(bundle)).toBe(true);
});

test('a failed payment, one held for review, and one not confirmed within a minute', async ({
  page,
  world,
}) => {
  const analytics = recordAnalytics(page);

  const failed = session({ payment_status: 'unpaid' });
  await sendEvent(world.request, 'checkout.session.completed', failed);
  await sendEvent(world.request, 'checkout.session.async_payment_failed', failed);
  await page.goto(`/thank-you?session_id=${failed.id}`);
  await expect(heading(page)).toHaveText('Your payment did not go through');
  await expect(page.getByRole('link', { name: 'Try the checkout again' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Download Now' })).toHaveCount(0);
  await expectNoViolations(page);
  await shoot(page, 'thank-you-failed', SHOTS);

  const held = session({
    amount_total: 100,
    customer_details: { email: 'grace@example.com', name: 'Grace Held' },
  });
  await sendEvent(world.request, 'checkout.session.completed', held);
  await page.goto(`/thank-you?session_id=${held.id}`);
  await expect(heading(page)).toHaveText('We are checking your payment');

  // A session the server never hears about: after a minute (of the page's clock) the page
  // stops waiting and says so.
  await page.clock.install();
  await page.goto(`/#/thank-you?session_id=${newSessionId()}`);
  await page.reload();
  await expect(heading(page)).toHaveText('Confirming your payment…');
  await page.clock.fastForward(61_000);
  await expect(heading(page)).toHaveText('We could not confirm your payment yet');
  await expect(page.getByRole('button', { name: 'Check again' })).toBeVisible();
  await expect(page.getByRole('form', { name: 'Request a new download link' })).toBeVisible();
  await expectNoViolations(page);
  await shoot(page, 'thank-you-not-confirmed', SHOTS);

  expect(analytics.filter((line) => line.includes('conversion purchase'))).toEqual([]);
});

test('the Orders page lists the orders and revokes a buyer’s links', async ({ page, world }) => {
  await page.goto('/#/admin');
  await page
    .getByRole('navigation', { name: 'Admin pages' })
    .getByRole('link', { name: 'Orders' })
    .click();
  const rows = ordersTable(page)
    .getByRole('row')
    .filter({ has: page.getByRole('cell') });
  await expect(rows).toHaveCount(3);
  // Newest first: the order held for review, the failed one, then the paid one.
  const paid = rows.last();
  await expect(paid).toContainText('Paid');
  await expect(paid).toContainText(BUYER.email);
  await expect(paid).toContainText('$27.00');
  await expect(paid).toContainText(BUYER.name);
  await expect(rows.first()).toContainText('Review');
  await expect(rows.first()).toContainText('grace@example.com');
  await expect(rows.nth(1)).toContainText('Failed');
  await expect(page.getByText('Page 1 of 1 (3 orders)')).toBeVisible();
  // On a desktop screen every column, actions included, shows without scrolling sideways.
  await page.setViewportSize({ width: 1280, height: 900 });
  const table = page.getByRole('group', { name: 'Orders table' });
  expect(await table.evaluate((element) => element.scrollWidth - element.clientWidth)).toBe(0);
  await expectNoViolations(page);
  await shoot(page, 'admin-orders-filled', SHOTS);

  await page.getByLabel('Status').selectOption('paid');
  await expect(rows).toHaveCount(1);
  await page.getByLabel('Status').selectOption('all');
  await page.getByLabel('Search name or email').fill('grace');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('grace@example.com');
  await page.getByLabel('Search name or email').fill('');
  await expect(rows).toHaveCount(3);

  const messages: string[] = [];
  page.once('dialog', (dialog) => {
    messages.push(dialog.message());
    void dialog.accept();
  });
  await paid.getByRole('button', { name: /^Revoke links of order/ }).click();
  await expect(page.getByRole('status')).toContainText('no longer work');
  expect(messages[0]).toContain(`(${BUYER.email})`);
  await expect(paid).toContainText('Links revoked');
  await expect(paid.getByRole('button', { name: /^Revoke links/ })).toHaveCount(0);

  // Every link the buyer was sent now leads to the explanation, without a new-link form.
  const fresh = await world.sink.waitFor(
    (mail) => mail.envelopeTo.includes(BUYER.email) && /new download link/.test(mail.subject),
  );
  await page.goto(linkIn(fresh));
  await expect(page).toHaveURL(/#\/download-link\?reason=revoked$/);
  await expect(heading(page)).toHaveText('This download is no longer available');
  await expect(page.getByRole('form', { name: 'Request a new download link' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'contact support' })).toBeVisible();
  await shoot(page, 'download-link-revoked', SHOTS);
});

test('an emailed link past DOWNLOAD_LINK_HOURS explains that it expired', async ({ browser }) => {
  test.setTimeout(90_000);
  const sink = await startSmtpSink();
  const port = await freePort();
  // 0.001 hours: the link expires 3.6 s after it is made.
  const server = await startServer({
    ...serverEnv,
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    SMTP_URL: sink.url,
    DOWNLOAD_LINK_HOURS: '0.001',
  });
  const context = await browser.newContext({ baseURL: server.url });
  try {
    await sendEvent(context.request, 'checkout.session.completed', session());
    const receipt = await sink.waitFor((mail) => mail.envelopeTo.includes(BUYER.email));
    await new Promise((resolve) => setTimeout(resolve, 4000));
    const page = await context.newPage();
    await page.goto(linkIn(receipt));
    await expect(page).toHaveURL(/#\/download-link\?reason=expired$/);
    await expect(heading(page)).toHaveText('This download link has expired');
    await expect(page.getByRole('form', { name: 'Request a new download link' })).toBeVisible();
    await shoot(page, 'download-link-expired', SHOTS);
  } finally {
    await context.close();
    expect(await server.stop()).toBe(0);
    await sink.close();
  }
});
