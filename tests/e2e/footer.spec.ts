import { expect, test } from './fixtures';
import { recordAnalytics, suppressPopup } from './support';

// Scrolling to the footer crosses the free-guide popup's threshold; the popup has its own spec.
test.beforeEach(({ page }) => suppressPopup(page));

const footerLinks = [
  { name: 'Contact Us', hash: '#/contact-us', destination: 'contact_us', h1: 'Get in Touch' },
  {
    name: 'Privacy Policy',
    hash: '#/privacy-policy',
    destination: 'privacy_policy',
    h1: 'Privacy Policy',
  },
  {
    name: 'Refund Policy',
    hash: '#/refund-policy',
    destination: 'refund_policy',
    h1: 'Refund Policy',
  },
  {
    name: 'Terms of Service',
    hash: '#/terms-of-service',
    destination: 'terms_of_service',
    h1: 'Terms of Service',
  },
];

test('the footer shows the logo, the name, the copyright of the current year and the four links', async ({
  page,
}) => {
  await page.goto('/');
  const footer = page.locator('footer');
  await expect(footer.locator('svg').first()).toBeVisible();
  await expect(footer.getByText('Soul Reset Bundle', { exact: true })).toBeVisible();
  await expect(footer).toContainText(
    `© ${new Date().getFullYear()} Soul Reset Bundle. All rights reserved.`,
  );
  const nav = footer.getByRole('navigation', { name: 'Footer' });
  await expect(nav.getByRole('link')).toHaveText(footerLinks.map((link) => link.name));
  for (const link of footerLinks) {
    await expect(nav.getByRole('link', { name: link.name })).toHaveAttribute('href', link.hash);
  }
});

for (const link of footerLinks) {
  test(`the footer's ${link.name} link opens its page at the top and is recorded`, async ({
    page,
  }) => {
    const analytics = recordAnalytics(page);
    await page.goto('/');
    // The app has started (it does after the largest paint, which can come after the load
    // event): before it, the link only changes the hash.
    await expect.poll(() => analytics).toEqual(['[analytics] page_view home {}']);
    await page.locator('footer').scrollIntoViewIfNeeded();
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(1000);

    await page.locator('footer').getByRole('link', { name: link.name }).click();
    await expect(page).toHaveURL(new RegExp(`${link.hash}$`));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(link.h1);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
    await expect
      .poll(() => analytics)
      .toEqual([
        '[analytics] page_view home {}',
        `[analytics] event navigation_click {"source":"footer","destination":"${link.destination}"}`,
        `[analytics] page_view ${link.destination} {}`,
      ]);
  });
}
