import { expect, test } from './fixtures';
import {
  defaultCheckoutUrl,
  recordAnalytics,
  sendGlobalPrivacyControl,
  stubExternalSite,
  suppressPopup,
} from './support';

test.describe('with Global Privacy Control', () => {
  test.beforeEach(async ({ page }) => {
    await sendGlobalPrivacyControl(page);
  });

  test('every analytics call is logged as suppressed, with nothing recorded', async ({
    page,
    context,
  }) => {
    await stubExternalSite(context, defaultCheckoutUrl);
    // Clicking the footer scrolls past the free-guide popup's threshold (tested below).
    await suppressPopup(page);
    const analytics = recordAnalytics(page);
    await page.goto('/');
    await expect
      .poll(() => analytics)
      .toEqual(['[analytics] suppressed page_view home (Global Privacy Control)']);

    const popup = page.waitForEvent('popup');
    await page.getByRole('link', { name: 'Download Now – Just $27' }).click();
    await (await popup).close();
    await page.locator('footer').getByRole('link', { name: 'Privacy Policy' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Privacy Policy');

    await expect
      .poll(() => analytics)
      .toEqual([
        '[analytics] suppressed page_view home (Global Privacy Control)',
        '[analytics] suppressed event stripe_payment_click (Global Privacy Control)',
        '[analytics] suppressed event cta_click (Global Privacy Control)',
        '[analytics] suppressed event navigation_click (Global Privacy Control)',
        '[analytics] suppressed page_view privacy_policy (Global Privacy Control)',
      ]);
    await expect(page.getByRole('main').getByRole('status')).toHaveText(
      'Your browser is sending the Global Privacy Control signal: we have treated it as your opt-out, so your browser sends us no visit statistics at all, and even the in-browser analytics notes are switched off.',
    );
  });

  test('the purchase conversion is suppressed too', async ({ page }) => {
    const analytics = recordAnalytics(page);
    await page.goto('/#/thank-you');
    await expect
      .poll(() => analytics)
      .toEqual([
        '[analytics] suppressed page_view thank_you (Global Privacy Control)',
        '[analytics] suppressed conversion purchase (Global Privacy Control)',
      ]);
  });

  test('the free-guide popup still opens, and its popup_shown event is suppressed', async ({
    page,
  }) => {
    const analytics = recordAnalytics(page);
    await page.goto('/');
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));

    await expect(page.getByRole('dialog', { name: 'Free Mindfulness Guide' })).toBeVisible();
    await expect
      .poll(() => analytics)
      .toEqual([
        '[analytics] suppressed page_view home (Global Privacy Control)',
        '[analytics] suppressed event popup_shown (Global Privacy Control)',
      ]);
  });
});
