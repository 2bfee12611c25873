import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { defaultCheckoutUrl, stubExternalSite } from './support';

// An address with characters that must be escaped in HTML, to prove the server escapes them.
const checkoutUrl = 'https://checkout.example.test/b/live_42?ref=site&plan=bundle';
const downloadUrl = 'https://files.example.test/soul-reset-bundle.zip';

test.use({ serverEnv: { CHECKOUT_URL: checkoutUrl, DOWNLOAD_URL: downloadUrl } });

/** Every link on the page that leads to a checkout, by what it says. */
const checkoutLinks = (page: Page) => page.getByRole('link', { name: /Download Now|Buy Now/ });

test('the served home HTML carries the configured checkout URL in every checkout link', async ({
  request,
}) => {
  const html = await (await request.get('/')).text();
  expect(html).not.toContain('__CHECKOUT_URL__');
  expect(html).not.toContain(defaultCheckoutUrl);
  // The other routes' prerendered markup rides along in templates: the thank-you page's
  // download link carries DOWNLOAD_URL; every other new-tab link on the page is a checkout.
  const templates = /<template\b[^>]*>[\s\S]*?<\/template>/g;
  expect(html.match(templates)?.join('')).toContain(`href="${downloadUrl}"`);
  const homeHtml = html.replace(templates, '');
  const hrefs = [...homeHtml.matchAll(/<a\b[^>]*\btarget="_blank"[^>]*>/g)].map(
    (match) => /href="([^"]*)"/.exec(match[0])?.[1],
  );
  expect(hrefs.length).toBeGreaterThanOrEqual(2);
  for (const href of hrefs) {
    expect(href).toBe(checkoutUrl.replace('&', '&amp;'));
  }
});

test('checkout links use the configured URL after hydration and client-side navigation', async ({
  page,
  context,
}) => {
  await stubExternalSite(context, checkoutUrl);
  await page.goto('/');
  const links = checkoutLinks(page);
  await expect(links).not.toHaveCount(0);
  for (const link of await links.all()) await expect(link).toHaveAttribute('href', checkoutUrl);

  // Leave home and come back: this time the page is rendered in the browser.
  await page.goto('/#/privacy-policy');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Privacy Policy');
  await page.getByRole('link', { name: 'Back to Home' }).click();
  await expect(page.locator('#hero')).toBeVisible();
  const count = await links.count();
  expect(count).toBeGreaterThanOrEqual(2);
  for (const link of await links.all()) await expect(link).toHaveAttribute('href', checkoutUrl);

  const popupOpened = page.waitForEvent('popup');
  await page.locator('#final-cta').getByRole('link', { name: 'Download Now' }).click();
  const popup = await popupOpened;
  await expect(popup).toHaveURL(checkoutUrl);
});

test('the thank-you page downloads from the configured DOWNLOAD_URL', async ({ page }) => {
  await page.goto('/#/thank-you');
  await expect(page.getByRole('main').getByRole('link', { name: 'Download Now' })).toHaveAttribute(
    'href',
    downloadUrl,
  );
});
