import AxeBuilder from '@axe-core/playwright';
import { expect, type BrowserContext, type Page } from '@playwright/test';

/** The `[analytics] …` console lines the page logs from now on, in order. */
export function recordAnalytics(page: Page): string[] {
  const lines: string[] = [];
  page.on('console', (message) => {
    if (message.text().startsWith('[analytics]')) lines.push(message.text());
  });
  return lines;
}

/**
 * Answers requests to an external host with a stub page: there is no network here, and a
 * checkout opened in a new tab must not depend on one.
 */
export async function stubExternalSite(context: BrowserContext, url: string): Promise<void> {
  const { origin } = new URL(url);
  await context.route(
    (requested) => requested.origin === origin,
    (route) =>
      route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>Checkout</title>' }),
  );
}

/** Pretends the browser sends Global Privacy Control (Chromium has no setting for it). */
export async function sendGlobalPrivacyControl(page: Page): Promise<void> {
  await page.addInitScript(() => {
    Object.defineProperty(Navigator.prototype, 'globalPrivacyControl', {
      configurable: true,
      get: () => true,
    });
  });
}

/** The home page's sections, in SPEC.md §2's order. */
export const homeSectionIds = [
  'hero',
  'problem',
  'solution',
  'daily-presence-journal',
  'evening-calm-ritual',
  'thought-healing-deck',
  'oracle-quote-cards',
  'ritual-tracker',
  'inner-peace-workbook',
  'benefits',
  'testimonials',
  'final-cta',
  'order-form',
  'contact-form',
];

export const defaultCheckoutUrl = 'https://buy.stripe.com/test_soul_reset_bundle';

/**
 * Keeps the free-guide popup away, as after it was shown once in this session: tests that
 * scroll the home page past 40% would otherwise have the dialog open over what they click.
 */
export async function suppressPopup(page: Page): Promise<void> {
  await page.addInitScript(() => sessionStorage.setItem('freeGuidePopupShown', 'true'));
}

/**
 * axe-core finds nothing on the page as it is now; with `frames: false` it leaves the page's
 * frames out (a sandboxed frame without scripts cannot run axe, and waiting for it hangs).
 */
export async function expectNoViolations(page: Page, { frames = true } = {}) {
  const builder = new AxeBuilder({ page });
  const results = await (frames ? builder : builder.exclude('iframe')).analyze();
  expect(
    results.violations.map((violation) => ({
      id: violation.id,
      help: violation.help,
      targets: violation.nodes.map((node) => node.target.join(' ')),
    })),
  ).toEqual([]);
}
