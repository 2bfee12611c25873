import { gzipSync } from 'node:zlib';
import { expect, test } from './fixtures';
import {
  defaultCheckoutUrl,
  homeSectionIds,
  recordAnalytics,
  stubExternalSite,
  suppressPopup,
} from './support';

/** The home page's first-load JavaScript budget (README.md, "Performance"). */
const HOME_JS_BUDGET_GZIP = 90_000;

test('the home page loads at most 90 KB of gzipped JavaScript', async ({ page }) => {
  const scripts = new Map<string, number>();
  page.on('response', async (response) => {
    if (response.request().resourceType() !== 'script') return;
    scripts.set(response.url(), gzipSync(await response.body(), { level: 9 }).length);
  });
  await page.goto('/', { waitUntil: 'networkidle' });
  await expect(page.locator('#hero')).toBeVisible();
  const total = [...scripts.values()].reduce((sum, size) => sum + size, 0);
  test.info().annotations.push({ type: 'home JS gzip bytes', description: String(total) });
  expect(scripts.size).toBeGreaterThan(0);
  expect(
    total,
    [...scripts].map(([url, size]) => `${url}: ${size}`).join('\n'),
  ).toBeLessThanOrEqual(HOME_JS_BUDGET_GZIP);
});

test.describe('home page', () => {
  // These tests scroll past the popup's threshold; the popup has its own spec.
  test.beforeEach(({ page }) => suppressPopup(page));

  test('has the 14 sections in order, then the footer', async ({ page }) => {
    await page.goto('/');
    const ids = await page
      .locator('main > section')
      .evaluateAll((sections) => sections.map((section) => section.id));
    expect(ids).toEqual(homeSectionIds);
    const footerFollowsMain = await page.evaluate(() => {
      const main = document.querySelector('main');
      const footer = document.querySelector('footer');
      return !!main && !!footer && !!(main.compareDocumentPosition(footer) & 4);
    });
    expect(footerFollowsMain).toBe(true);
    await expect(
      page.locator('#order-form h2, #order-form [data-form-slot="order-form"]'),
    ).not.toHaveCount(0);
    await expect(
      page.locator('#contact-form h2, #contact-form [data-form-slot="contact-form"]'),
    ).not.toHaveCount(0);
  });

  test('shows the offer: price, former price, discount and delivery terms', async ({ page }) => {
    await page.goto('/');
    const hero = page.locator('#hero');
    await expect(hero.getByRole('heading', { level: 1 })).toContainText('Soul Reset Bundle');
    await expect(hero.getByText('$27', { exact: true })).toBeVisible();
    await expect(hero.locator('s')).toHaveText('$89');
    await expect(hero.getByText('70% off – save $62')).toBeVisible();
    await expect(hero.getByText('Limited-time offer · 70% off')).toBeVisible();
    for (const promise of [
      'Instant download',
      'Lifetime access',
      'No subscription',
      'No physical shipment',
    ]) {
      await expect(hero.getByText(promise, { exact: true })).toBeVisible();
    }
    const finalCta = page.locator('#final-cta');
    await expect(finalCta.locator('s')).toHaveText('$89');
    await expect(finalCta.getByText('70% off – save $62')).toBeVisible();
    await expect(finalCta.getByText('Limited-time offer')).toBeVisible();
    await expect(finalCta).toContainText('One payment, lifetime access, no subscription.');
    await expect(finalCta).toContainText('30-day guarantee');
    await expect(finalCta).toContainText('Instant download: your files are ready');
    await expect(finalCta).toContainText('no physical item will be shipped');
  });

  test('lists the bundle, the five habits, the results and the social proof', async ({ page }) => {
    await page.goto('/');
    const bundle = page.locator('#solution ol li');
    await expect(bundle).toHaveText([
      /Daily Presence Journal/,
      /Evening Calm Ritual/,
      /Thought Healing Deck \(CBT-informed\)/,
      /Oracle-Inspired Quote Cards/,
      /Ritual Tracker & Inner Peace Workbook/,
    ]);
    const habits = page.locator('#solution h3', {
      hasNotText: 'What’s inside the bundle',
    });
    await expect(habits).toHaveText([
      'Daily Awareness',
      'Evening Release',
      'Thought Reframing',
      'Energetic Focus',
      'Self-Tracking',
    ]);
    for (const habit of await page.locator('#solution > div > ul > li').all()) {
      await expect(habit.locator('svg')).toHaveCount(1);
      await expect(habit.locator('p')).not.toBeEmpty();
    }
    await expect(page.locator('#solution')).toContainText('Our 30-day promise');
    await expect(page.locator('#solution')).toContainText('No physical product is shipped');

    // The six product sections, between the solution and the benefits.
    for (const id of homeSectionIds.slice(3, 9)) {
      const section = page.locator(`#${id}`);
      await expect(section.getByRole('heading', { level: 2 })).toBeVisible();
      await expect(section.getByRole('img')).toHaveCount(1);
    }

    const benefits = page.locator('#benefits');
    await expect(benefits.getByRole('heading', { level: 2 })).toHaveText(
      'What you can expect after 30 days',
    );
    await expect(benefits.locator('ul li')).toHaveCount(6);
    await expect(benefits.locator('dd')).toHaveText(['5,000+', '94%', '7 days']);
    await expect(benefits.locator('dt')).toHaveText([
      'customers',
      'success rate',
      'to visible results',
    ]);
  });

  test('shows sample testimonials with image, name, location, quote and five stars', async ({
    page,
  }) => {
    await page.goto('/');
    const cards = page.locator('#testimonials figure');
    await expect(cards).toHaveCount(3);
    for (const card of await cards.all()) {
      await expect(card.getByRole('img', { name: 'Rated 5 out of 5 stars' })).toBeVisible();
      await expect(card.locator('[aria-label="Rated 5 out of 5 stars"] svg')).toHaveCount(5);
      await expect(card.locator('blockquote')).not.toBeEmpty();
      await expect(card.locator('figcaption img')).toHaveAttribute('src', /\/assets\/portrait-/);
      await expect(card.locator('figcaption span span')).toHaveCount(2);
    }
    await expect(cards.first()).toContainText('Sofia M.');
    await expect(cards.first()).toContainText('Austin, Texas');
  });

  test('opens the checkout in a new tab from the hero and the final call to action', async ({
    page,
    context,
  }) => {
    await stubExternalSite(context, defaultCheckoutUrl);
    await page.goto('/');
    for (const [section, name] of [
      ['#hero', 'Download Now – Just $27'],
      ['#final-cta', 'Download Now'],
    ] as const) {
      const link = page.locator(section).getByRole('link', { name, exact: true });
      await expect(link).toHaveAttribute('href', defaultCheckoutUrl);
      await expect(link).toHaveAttribute('target', '_blank');
      await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
      const popupOpened = page.waitForEvent('popup');
      await link.click();
      const popup = await popupOpened;
      await expect(popup).toHaveURL(defaultCheckoutUrl);
      await popup.close();
    }
    await expect(page).toHaveURL(/\/#?\/?$/);
  });

  test('"Or ask questions first" scrolls to the order form', async ({ page }) => {
    await page.goto('/');
    await expect(page.locator('#order-form')).not.toBeInViewport();
    await page.getByRole('link', { name: 'Or ask questions first' }).click();
    await expect(page.locator('#order-form')).toBeInViewport();
    await expect(page.locator('#hero')).not.toBeInViewport();
    await expect(page.locator('#order-form')).toBeFocused();
  });

  test('a section hash in the address scrolls to that section', async ({ page }) => {
    await page.goto('/#/#testimonials');
    await expect(page.locator('#testimonials')).toBeInViewport();
    await expect(page.locator('#hero')).not.toBeInViewport();

    await page.goto('/#/#contact-form');
    await expect(page.locator('#contact-form')).toBeInViewport();
  });

  test('serves every picture from the app with its size set, and nothing shifts', async ({
    page,
    baseURL,
  }) => {
    await page.addInitScript(() => {
      (window as unknown as { __cls: number }).__cls = 0;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as (PerformanceEntry & { value: number })[]) {
          (window as unknown as { __cls: number }).__cls += entry.value;
        }
      }).observe({ type: 'layout-shift', buffered: true });
    });
    await page.goto('/');
    const images = await page.locator('img').evaluateAll((elements) =>
      elements.map((img) => ({
        src: (img as HTMLImageElement).src,
        width: img.getAttribute('width'),
        height: img.getAttribute('height'),
      })),
    );
    expect(images.length).toBeGreaterThanOrEqual(10);
    for (const image of images) {
      expect(image.src.startsWith(baseURL ?? '-'), image.src).toBe(true);
      expect(Number(image.width), image.src).toBeGreaterThan(0);
      expect(Number(image.height), image.src).toBeGreaterThan(0);
    }
    // Walk down the page so that every lazy image loads while the shifts are counted.
    for (const image of await page.locator('img').all()) {
      await image.scrollIntoViewIfNeeded();
      await expect(image).toHaveJSProperty('complete', true);
      expect(await image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    }
    for (const image of images) {
      const response = await page.request.get(image.src);
      expect(response.status(), image.src).toBe(200);
      expect(response.headers()['content-type']).toContain('image/svg+xml');
    }
    expect(await page.evaluate(() => (window as unknown as { __cls: number }).__cls)).toBe(0);
  });

  test('records the page view and each call to action in the console', async ({
    page,
    context,
  }) => {
    await stubExternalSite(context, defaultCheckoutUrl);
    const analytics = recordAnalytics(page);
    await page.goto('/');
    await expect.poll(() => analytics).toEqual(['[analytics] page_view home {}']);

    const popup = page.waitForEvent('popup');
    await page.getByRole('link', { name: 'Download Now – Just $27' }).click();
    await (await popup).close();
    await page.getByRole('link', { name: 'Or ask questions first' }).click();
    const finalPopup = page.waitForEvent('popup');
    await page.locator('#final-cta').getByRole('link', { name: 'Download Now' }).click();
    await (await finalPopup).close();

    await expect
      .poll(() => analytics)
      .toEqual([
        '[analytics] page_view home {}',
        '[analytics] event stripe_payment_click {"source":"hero","value":27,"currency":"USD"}',
        '[analytics] event cta_click {"source":"hero","action":"download_now"}',
        '[analytics] event cta_click {"source":"hero","action":"buy_now"}',
        '[analytics] event stripe_payment_click {"source":"final_cta","value":27,"currency":"USD"}',
        '[analytics] event cta_click {"source":"final_cta","action":"buy_now"}',
      ]);
  });
});
