// The insights collector in a real browser. POST /api/events is answered here (204), so these
// tests see exactly what the page sends, whatever the server does with it.
import type { BrowserContext, Page } from '@playwright/test';
import { EVENTS_PATH } from '../../src/shared/insights/insight-events';
import { expect, test } from './fixtures';
import {
  defaultCheckoutUrl,
  sendGlobalPrivacyControl,
  stubExternalSite,
  suppressPopup,
} from './support';

type Sent = { method: string; contentType: string; body: string };

/** Every request to EVENTS_PATH from now on, answered 204 as the server does. */
async function recordEvents(context: BrowserContext): Promise<Sent[]> {
  const sent: Sent[] = [];
  await context.route(
    (url) => url.pathname === EVENTS_PATH,
    async (route) => {
      const request = route.request();
      sent.push({
        method: request.method(),
        contentType: (await request.allHeaders())['content-type'] ?? '',
        body: request.postData() ?? '',
      });
      await route.fulfill({ status: 204 });
    },
  );
  return sent;
}

const bodies = (sent: Sent[]) => sent.map((event) => JSON.parse(event.body) as unknown);

async function clickCheckoutInThisTab(page: Page) {
  const link = page.getByRole('link', { name: 'Download Now – Just $27' });
  // The link opens a new tab; in the same tab the page is gone the moment the click lands.
  await link.evaluate((anchor) => anchor.removeAttribute('target'));
  await link.click();
  await page.waitForURL(defaultCheckoutUrl);
}

test('sends the page view, then the checkout click even though the page leaves at once', async ({
  page,
  context,
}) => {
  const sent = await recordEvents(context);
  await stubExternalSite(context, defaultCheckoutUrl);
  await suppressPopup(page);
  await page.goto('/');
  await expect.poll(() => bodies(sent)).toEqual([{ name: 'page_view', path: '/' }]);

  await clickCheckoutInThisTab(page);
  await expect
    .poll(() => bodies(sent))
    .toEqual([
      { name: 'page_view', path: '/' },
      { name: 'checkout_click', path: '/' },
    ]);
  for (const event of sent) {
    expect(event.method).toBe('POST');
    expect(event.contentType).toMatch(/^text\/plain/);
  }
  expect(await context.cookies()).toEqual([]);
});

test('sends the popup shown and closed, with the path without its query', async ({
  page,
  context,
}) => {
  const sent = await recordEvents(context);
  await page.goto('/#/privacy-policy?from=footer');
  await expect.poll(() => bodies(sent)).toEqual([{ name: 'page_view', path: '/privacy-policy' }]);
  await page.getByRole('link', { name: 'Back to Home' }).click();
  // Scrolled once the home page is there: a scroll of the page it left moves nothing.
  await expect(page.getByRole('form', { name: 'Order form' })).toBeVisible();
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await expect(page.getByRole('dialog', { name: 'Free Mindfulness Guide' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect
    .poll(() => bodies(sent))
    .toEqual([
      { name: 'page_view', path: '/privacy-policy' },
      { name: 'page_view', path: '/' },
      { name: 'popup_shown', path: '/' },
      { name: 'popup_closed', path: '/' },
    ]);
  expect(await page.evaluate(() => Object.keys(localStorage))).toEqual([]);
  expect(await context.cookies()).toEqual([]);
});

test('sends nothing from the admin sign-in or the login page', async ({ page, context }) => {
  const sent = await recordEvents(context);
  await page.goto('/#/admin/login');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.goto('/#/login');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  // A public page afterwards proves the collector was running all along.
  await page.goto('/#/contact-us');
  await expect.poll(() => bodies(sent)).toEqual([{ name: 'page_view', path: '/contact-us' }]);
});

test('with Global Privacy Control sends nothing at all', async ({ page, context }) => {
  await sendGlobalPrivacyControl(page);
  const requests: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === EVENTS_PATH) requests.push(request.url());
  });
  const sent = await recordEvents(context);
  await stubExternalSite(context, defaultCheckoutUrl);
  await page.goto('/');
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await expect(page.getByRole('dialog', { name: 'Free Mindfulness Guide' })).toBeVisible();
  await page.keyboard.press('Escape');
  await page.goto('/#/privacy-policy');
  await expect(page.getByRole('main').getByRole('status')).toContainText(
    'Your browser is sending the Global Privacy Control signal',
  );
  await page.goto('/');
  await clickCheckoutInThisTab(page);
  expect(requests).toEqual([]);
  expect(sent).toEqual([]);
});
