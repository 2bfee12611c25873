import { expect, test } from './fixtures';
import { expectNoViolations, suppressPopup } from './support';

const routes = [
  '#/',
  '#/thank-you',
  '#/privacy-policy',
  '#/refund-policy',
  '#/terms-of-service',
  '#/contact-us',
  '#/login',
  '#/admin/login',
  '#/download-link?reason=expired',
  '#/download-link?reason=revoked',
];

const viewports = [
  { name: 'mobile', width: 375, height: 812 },
  { name: 'desktop', width: 1280, height: 800 },
];

for (const viewport of viewports) {
  test.describe(`at ${viewport.name} width`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    for (const route of routes) {
      test(`${route} has no axe-core violations`, async ({ page }) => {
        // The free-guide dialog is checked on its own below.
        await suppressPopup(page);
        await page.goto(`/${route}`);
        await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1);
        await expect(page.getByRole('main')).toHaveCount(1);
        // Lazy images below the fold load once the page is scrolled; check them loaded too.
        const footer = page.locator('footer');
        if ((await footer.count()) > 0) await footer.first().scrollIntoViewIfNeeded();
        await expectNoViolations(page);
      });
    }

    test('the open free-guide dialog has no axe-core violations', async ({ page }) => {
      await page.goto('/');
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      await expect(page.getByRole('dialog', { name: 'Free Mindfulness Guide' })).toBeVisible();
      await expectNoViolations(page);
    });
  });
}

test('links and buttons show a visible focus ring', async ({ page }) => {
  await page.goto('/');
  await page.keyboard.press('Tab');
  const focused = page.locator(':focus');
  await expect(focused).toHaveCount(1);
  const outline = await focused.evaluate((element) => getComputedStyle(element).outlineStyle);
  expect(outline).not.toBe('none');
});

test('smooth scrolling respects reduced motion', async ({ browser, baseURL }) => {
  const context = await browser.newContext({ reducedMotion: 'reduce', baseURL });
  const page = await context.newPage();
  try {
    await page.goto('/');
    expect(
      await page.evaluate(() => getComputedStyle(document.documentElement).scrollBehavior),
    ).toBe('auto');
    // Before the app has hydrated, the link only changes the hash and the app scrolls once it
    // starts; the instant jump is the hydrated link's.
    await page.waitForFunction(() =>
      Object.keys(document.getElementById('root') ?? {}).some((key) =>
        key.startsWith('__reactContainer'),
      ),
    );
    await page.getByRole('link', { name: 'Or ask questions first' }).click();
    // Without animation the jump is complete at once: the section is at the top, or the page
    // is scrolled as far as it goes.
    const position = await page.evaluate(() => ({
      top: document.getElementById('order-form')!.getBoundingClientRect().top,
      atEnd: window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 1,
      scrolled: window.scrollY,
    }));
    expect(position.scrolled).toBeGreaterThan(1000);
    expect(position.top < 50 || position.atEnd, JSON.stringify(position)).toBe(true);
  } finally {
    await context.close();
  }
});
