import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { recordAnalytics, stubExternalSite } from './support';

async function expectHeaderBackLink(page: Page) {
  const header = page.getByRole('banner');
  const back = header.getByRole('link', { name: 'Back to Home' });
  await expect(back).toHaveAttribute('href', '#/');
  await expect(header).toHaveCSS('position', 'sticky');
}

async function expectSections(page: Page, titles: string[]) {
  await expect(page.getByRole('main').getByRole('heading', { level: 2 })).toHaveText(titles);
}

async function expectLastUpdated(page: Page) {
  await expect(page.getByRole('main')).toContainText('Last updated: May 15, 2025');
}

async function expectFooter(page: Page) {
  await expect(page.locator('footer')).toContainText(
    `© ${new Date().getFullYear()} Soul Reset Bundle`,
  );
}

test('thank-you page: message, download in a new tab, support link, purchase conversion', async ({
  page,
  context,
}) => {
  const analytics = recordAnalytics(page);
  await page.goto('/#/thank-you');
  await expectHeaderBackLink(page);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Thank You for Your Purchase!');
  const main = page.getByRole('main');
  await expect(main).toContainText('Soul Reset Bundle');
  await expect(main).toContainText('You will also receive an email with your download link');
  const download = main.getByRole('link', { name: 'Download Now' });
  await expect(download).toHaveAttribute('href', '/downloads/soul-reset-bundle-sample.pdf');
  await expect(download).toHaveAttribute('target', '_blank');
  await expect(download).toHaveAttribute('rel', 'noopener noreferrer');
  await expect(main.getByRole('link', { name: 'contact support' })).toHaveAttribute(
    'href',
    '#/contact-us',
  );
  await expectFooter(page);
  await expect
    .poll(() => analytics)
    .toEqual([
      '[analytics] page_view thank_you {}',
      '[analytics] conversion purchase {"value":27,"currency":"USD"}',
    ]);

  await stubExternalSite(context, 'https://unused.example');
  await main.getByRole('link', { name: 'contact support' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Get in Touch');
  await page.getByRole('link', { name: 'Back to Home' }).click();
  await expect(page).toHaveURL(/#\/$/);
  await expect(page.locator('#hero')).toBeVisible();
});

test('privacy policy: sections, what is collected, GPC, rights, contact link', async ({ page }) => {
  const analytics = recordAnalytics(page);
  await page.goto('/#/privacy-policy');
  await expectHeaderBackLink(page);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Privacy Policy');
  await expectLastUpdated(page);
  await expectSections(page, [
    'General Information',
    'Collecting Personal Information',
    'Cookies and Targeted Advertising',
    'Your Rights',
    'Contact',
  ]);
  const main = page.getByRole('main');
  await expect(main).toContainText('your name, email address, your message');
  await expect(main).toContainText('no third-party trackers');
  // What the insights collector and the server's statistics do (DESIGN.md "Insights").
  await expect(main).toContainText(
    'Our own server also counts page views and a few actions: the free guide offer being shown or closed, the guide being requested, a form being sent and the checkout button being clicked.',
  );
  await expect(main).toContainText('the page’s path (such as /privacy-policy)');
  await expect(main).toContainText(
    'a random value that changes every day, your IP address and your browser’s user agent into a one-way hash',
  );
  await expect(main).toContainText(
    'Your IP address and user agent are never stored for these statistics, and the day’s random value is deleted when the day ends',
  );
  await expect(main).toContainText(
    'The individual events are deleted after two days, leaving only daily totals. We share none of this with anyone.',
  );
  await expect(main).toContainText(
    'they use no cookies and store nothing in your browser that could recognise you',
  );
  await expect(main).not.toContainText('console');
  await expect(main).toContainText('U.S. states');
  await expect(main).toContainText('opt out of the sale of personal information');
  await expect(main).toContainText('We honour the Global Privacy Control (GPC) signal');
  await expect(main).toContainText(
    'your browser sends us no visit statistics at all, our server ignores anything that arrives with the signal',
  );
  await expect(main.getByRole('status')).toHaveText(
    'Your browser is not sending the Global Privacy Control signal right now.',
  );
  for (const right of ['Access:', 'Portability:', 'Correction:', 'Erasure:']) {
    await expect(main.getByText(right)).toBeVisible();
  }
  await expect(main.getByRole('link', { name: 'contact page' })).toHaveAttribute(
    'href',
    '#/contact-us',
  );
  await expectFooter(page);
  await expect.poll(() => analytics).toEqual(['[analytics] page_view privacy_policy {}']);
});

test('refund policy: all sales final, contact first, sections and the refund form', async ({
  page,
}) => {
  const analytics = recordAnalytics(page);
  await page.goto('/#/refund-policy');
  await expectHeaderBackLink(page);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Refund Policy');
  await expectLastUpdated(page);
  const main = page.getByRole('main');
  await expect(main.getByText('All sales are final.')).toBeVisible();
  await expect(main).toContainText(
    'there are no refunds or exchanges once the bundle has been purchased and downloaded',
  );
  await expect(main.getByRole('link', { name: 'contact us' })).toHaveAttribute(
    'href',
    '#/contact-us',
  );
  await expect(main).toContainText('before buying');
  await expect(main.getByRole('heading', { level: 2 }).first()).toHaveText(
    'Digital Product Policy',
  );
  await expect(main.getByRole('heading', { level: 2, name: 'Our Commitment' })).toBeVisible();
  await expect(
    main.getByRole('heading', { level: 2, name: 'Questions & Inquiries' }),
  ).toBeVisible();
  await expect(main.locator('[data-form-slot="refund-form"], form')).not.toHaveCount(0);
  await expectFooter(page);
  await expect.poll(() => analytics).toEqual(['[analytics] page_view refund_policy {}']);
});

test('terms of service: sticky header, sections, links and the feedback form', async ({ page }) => {
  const analytics = recordAnalytics(page);
  await page.goto('/#/terms-of-service');
  await expectHeaderBackLink(page);
  await expect(page.getByRole('banner')).toContainText('Terms of Service');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Terms of Service');
  await expectLastUpdated(page);
  const main = page.getByRole('main');
  await expect(main.getByRole('heading', { level: 2 }).first()).toHaveText('Agreement to Terms');
  for (const title of ['Use of Digital Products', 'Disclaimers', 'Questions & Feedback']) {
    await expect(main.getByRole('heading', { level: 2, name: title })).toBeVisible();
  }
  await expect(main.getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute(
    'href',
    '#/privacy-policy',
  );
  await expect(main.getByRole('link', { name: 'Refund Policy' })).toHaveAttribute(
    'href',
    '#/refund-policy',
  );
  await expect(main).toContainText('personal, non-commercial use only');
  await expect(main).toContainText('You may not share, resell or redistribute the files');
  await expect(main).toContainText('copyright protected');
  await expect(main).toContainText('informational and self-care purposes only');
  await expect(main).toContainText('It is not medical or mental-health advice');
  await expect(main.locator('[data-form-slot="terms-feedback-form"], form')).not.toHaveCount(0);
  await expectFooter(page);

  // The header stays in view while the visitor reads.
  await page.locator('footer').scrollIntoViewIfNeeded();
  await expect(
    page.getByRole('banner').getByRole('link', { name: 'Back to Home' }),
  ).toBeInViewport();
  await expect.poll(() => analytics).toEqual(['[analytics] page_view terms_of_service {}']);
});

test('contact us: header, heading, reply note, the contact form and the footer', async ({
  page,
}) => {
  const analytics = recordAnalytics(page);
  await page.goto('/#/contact-us');
  await expectHeaderBackLink(page);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Get in Touch');
  await expect(page.getByRole('main')).toContainText('Our team will reply as soon as possible.');
  await expect(
    page.getByRole('main').locator('[data-form-slot="contact-form"], form'),
  ).not.toHaveCount(0);
  await expectFooter(page);
  await expect.poll(() => analytics).toEqual(['[analytics] page_view contact_us {}']);
});

test('the downloads are served as PDF files', async ({ request }) => {
  for (const file of ['soul-reset-bundle-sample.pdf', 'free-mindfulness-guide.pdf']) {
    const response = await request.get(`/downloads/${file}`);
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toBe('application/pdf');
    const body = await response.body();
    expect(body.subarray(0, 5).toString()).toBe('%PDF-');
    expect(body.toString('latin1')).toContain(
      file.startsWith('free') ? 'Free Mindfulness Guide' : 'Soul Reset Bundle',
    );
  }
});
