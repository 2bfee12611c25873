import { expect, test } from './fixtures';

declare global {
  interface Window {
    /** Set by a test to tell a client-side navigation from a document reload. */
    __marker?: number;
    /** The footer's privacy link as the HTML parser created it (before any script ran). */
    __parsedPrivacyLink?: Element;
  }
}

const HOME_H1 = 'Soul Reset Bundle';

/** Every route of the SPA and the heading it shows. */
const routes: { hash: string; h1: string }[] = [
  { hash: '#/', h1: HOME_H1 },
  { hash: '#/thank-you', h1: 'Thank You for Your Purchase!' },
  { hash: '#/privacy-policy', h1: 'Privacy Policy' },
  { hash: '#/refund-policy', h1: 'Refund Policy' },
  { hash: '#/terms-of-service', h1: 'Terms of Service' },
  { hash: '#/contact-us', h1: 'Get in Touch' },
  { hash: '#/login', h1: 'Welcome Back' },
  { hash: '#/admin/login', h1: 'Admin Access' },
];

/** The text of an HTML fragment: tags and comments dropped, whitespace collapsed. */
function textOf(html: string): string {
  return html
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<[^>]*>/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

test('the home page is prerendered into index.html, and assets are cached for good', async ({
  request,
}) => {
  const response = await request.get('/');
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toContain('text/html');
  expect(response.headers()['cache-control']).toBe('no-cache');

  const html = await response.text();
  const h1 = /<h1\b[^>]*>([\s\S]*?)<\/h1>/.exec(html);
  expect(h1, 'an <h1> in the served HTML').not.toBeNull();
  expect(textOf(h1?.[1] ?? '')).toContain(HOME_H1);
  expect(html).toContain('href="#/privacy-policy"');

  // The app's entry module, named in the page for the inline start script.
  const script = /"(\/assets\/index-[^"]+\.js)"/.exec(html);
  expect(script, 'a script under /assets/ named in the served HTML').not.toBeNull();
  const asset = await request.get(script?.[1] ?? '');
  expect(asset.status()).toBe(200);
  expect(asset.headers()['content-type']).toContain('javascript');
  expect(asset.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
});

test('the prerendered home page hydrates and then navigates client-side', async ({ page }) => {
  // Scrolling to the footer would open the free-guide popup over the link: as after it was
  // shown once in this session, it stays away.
  await page.addInitScript(() => sessionStorage.setItem('freeGuidePopupShown', 'true'));
  // Remember the link the HTML parser creates. Hydration keeps that element; rendering from
  // scratch (or a hydration mismatch) would replace it.
  await page.addInitScript(() => {
    new MutationObserver((records) => {
      for (const record of records) {
        for (const node of record.addedNodes) {
          if (node instanceof Element && node.matches('a[href="#/privacy-policy"]')) {
            window.__parsedPrivacyLink ??= node;
          }
        }
      }
    }).observe(document, { childList: true, subtree: true });
  });

  await page.goto('/');
  await expect(page.locator('h1')).toContainText(HOME_H1);
  const link = page.locator('footer').getByRole('link', { name: 'Privacy Policy' });
  await expect(link).toBeVisible();
  expect(
    await page.evaluate(() => window.__parsedPrivacyLink?.isConnected ?? false),
    'the prerendered footer link is still in the document after the app started',
  ).toBe(true);

  await page.evaluate(() => {
    window.__marker = 1;
  });
  await link.click();
  await expect(page).toHaveURL(/\/#\/privacy-policy$/);
  await expect(page.locator('h1')).toHaveText('Privacy Policy');
  await expect(page.locator('h1')).toHaveCount(1);
  expect(await page.evaluate(() => window.__marker), 'no document reload').toBe(1);
});

for (const route of routes) {
  test(`${route.hash} shows "${route.h1}"`, async ({ page, baseURL }) => {
    await page.goto(`/${route.hash}`);
    const heading = page.getByRole('heading', { level: 1 });
    await expect(heading).toContainText(route.h1);
    if (route.h1 !== HOME_H1) await expect(heading).toHaveText(route.h1);
    await expect(page.locator('h1')).toHaveCount(1);
    expect(page.url()).toBe(`${baseURL}${route.hash}`);
  });
}

test('an unknown route redirects home and replaces the history entry', async ({ page }) => {
  await page.goto('/#/no-such-page');
  await expect(page).toHaveURL(/\/#\/$/);
  await expect(page.locator('h1')).toContainText(HOME_H1);

  await page.goto('/#/privacy-policy');
  await expect(page.locator('h1')).toHaveText('Privacy Policy');
  await page.evaluate(() => {
    window.location.hash = '#/no-such-page';
  });
  await expect(page).toHaveURL(/\/#\/$/);
  await expect(page.locator('h1')).toContainText(HOME_H1);

  // Back skips the unknown route: its entry was replaced by home.
  await page.goBack();
  await expect(page).toHaveURL(/\/#\/privacy-policy$/);
  await expect(page.locator('h1')).toHaveText('Privacy Policy');
});

test('a page path without the hash redirects to the hash route', async ({ request }) => {
  const response = await request.get('/admin', {
    headers: { Accept: 'text/html' },
    maxRedirects: 0,
  });
  expect(response.status()).toBe(302);
  expect(response.headers()['location']).toBe('/#/admin');
});

test('health and readiness endpoints answer', async ({ request }) => {
  const health = await request.get('/healthz');
  expect(health.status()).toBe(200);
  expect(await health.json()).toEqual({ status: 'ok' });

  const ready = await request.get('/readyz');
  expect(ready.status()).toBe(200);
  expect(await ready.json()).toEqual({
    status: 'ready',
    database: 'embedded-postgres',
    mail: {
      pending: expect.any(Number),
      oldestPendingSeconds: expect.any(Number),
      failedLastDay: expect.any(Number),
      late: false,
    },
  });
});

test('a Content-Security-Policy violation is caught: inline script and a foreign image are refused', async ({
  page,
  consoleErrors,
}) => {
  await page.goto('/#/privacy-policy');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  const ran = await page.evaluate(async () => {
    const script = document.createElement('script');
    script.textContent = 'window.inlineScriptRan = true';
    document.body.append(script);
    const image = new Image();
    image.src = 'https://images.example/pixel.png';
    document.body.append(image);
    await new Promise((resolve) => setTimeout(resolve, 200));
    return (window as unknown as { inlineScriptRan?: boolean }).inlineScriptRan === true;
  });
  expect(ran).toBe(false);
  expect(consoleErrors.filter((line) => line.includes('[csp]'))).toEqual([
    expect.stringContaining('[csp] script-src-elem refused inline'),
    expect.stringContaining('[csp] img-src refused https://images.example/pixel.png'),
  ]);
  consoleErrors.length = 0;
});
