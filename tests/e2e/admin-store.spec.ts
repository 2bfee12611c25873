import type { Page } from '@playwright/test';
import sharp from 'sharp';
import { adminTest } from './admin-fixtures';
import { expect } from './fixtures';
import { expectNoViolations } from './support';

const test = adminTest({}, async () => ({}));

test.describe.configure({ mode: 'serial' });

/** The served HTML of `/` as a client without JavaScript gets it, tags and React's comments out. */
async function servedText(page: Page): Promise<string> {
  const response = await page.request.get('/');
  expect(response.status()).toBe(200);
  return (await response.text())
    .replace(/<!-- -->/g, '')
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ');
}

const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });

// Pictures of each state at both widths, for a person to look at:
// SHOTS_DIR=/tmp/shots npm run test:e2e -- admin-store
async function shoot(page: Page, dir: string, name: string) {
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: width === 375 ? 812 : 800 });
    // The page reflows at the new width: two frames so the capture shows it painted.
    await page.evaluate(
      () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
    );
    await page.screenshot({ path: `${dir}/store-${name}-${width}.png`, fullPage: true });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(width);
  }
}

test('the owner edits the price and headline, previews, publishes and restores', async ({
  page,
  consoleErrors,
}, testInfo) => {
  test.setTimeout(120_000);
  const dir = process.env.SHOTS_DIR ?? testInfo.outputPath('shots');
  await page.goto('/#/admin');
  await page
    .getByRole('navigation', { name: 'Admin pages' })
    .getByRole('link', { name: 'Store' })
    .click();
  await expect(page).toHaveURL(/#\/admin\/store$/);
  await expect(field(page, 'Price')).toHaveValue('27');
  await expect(page.getByText('Shown as $27 instead of $89: 70% off, save $62.')).toBeVisible();
  await expect(page.getByRole('listitem').filter({ hasText: 'Version 1' })).toContainText('Live');
  await expectNoViolations(page);
  await shoot(page, dir, 'loaded');

  // A price that is not one, and a headline left empty: each error at its field.
  await field(page, 'Price').fill('twenty');
  await field(page, 'Headline').fill('');
  await page.getByRole('button', { name: 'Save draft' }).click();
  await expect(page.getByText('Enter the price as a number, such as 27 or 27.50.')).toBeVisible();
  await expect(field(page, 'Price')).toHaveAttribute('aria-invalid', 'true');
  await field(page, 'Price').fill('35.50');
  await page.getByRole('button', { name: 'Save draft' }).click();
  await expect(page.getByText('The headline cannot be empty.')).toBeVisible();
  // The refused save was logged by the browser; nothing else may be.
  for (const error of consoleErrors) expect(error).toMatch(/status of 400/);
  consoleErrors.length = 0;
  await expectNoViolations(page);
  await shoot(page, dir, 'errors');

  const headline = 'Breathe out: a calmer month starts today';
  await field(page, 'Headline').fill(headline);
  await expect(page.getByText('Unsaved changes')).toBeVisible();
  await page.getByRole('button', { name: 'Preview' }).click();
  // The frames run no script, not even the test's: what they show is read from their srcdoc.
  const phone = page.locator('iframe[title="Preview at phone width"]');
  await expect(phone).toHaveAttribute('srcdoc', new RegExp(`<h1[^>]*>${headline}</h1>`));
  const previewed = ((await phone.getAttribute('srcdoc')) ?? '').replace(/<!-- -->/g, '');
  expect(previewed).toContain('Download Now – Just $35.50');
  expect(previewed).not.toContain('<script');
  expect(await servedText(page)).not.toContain(headline);
  // The frames show the public page, checked by accessibility.spec.ts.
  await expectNoViolations(page, { frames: false });
  await shoot(page, dir, 'preview');

  await page.getByRole('button', { name: 'Publish' }).click();
  await expect(page.getByText(/Version 2 is live/)).toBeVisible();
  await expect(page.getByText('Live: version 2')).toBeVisible();
  await shoot(page, dir, 'published');

  // Without JavaScript: the server's HTML already says it.
  const served = await servedText(page);
  expect(served).toContain(headline);
  expect(served).toContain('Download Now – Just $35.50');
  expect(served).toContain('60% off – save $53.50');

  const visitor = await page.context().newPage();
  await visitor.goto('/');
  await expect(visitor.getByRole('heading', { level: 1 })).toHaveText(headline);
  await expect(visitor.getByRole('link', { name: /Buy Now - \$35\.50/ })).toBeVisible();
  await visitor.close();

  // Version 1 again: the old price is back.
  const first = page.getByRole('listitem').filter({ hasText: 'Version 1' });
  await first.getByRole('button', { name: 'Restore' }).click();
  await first.getByRole('button', { name: 'Publish version 1 again' }).click();
  await expect(page.getByText('Version 1 is published again as version 3.')).toBeVisible();
  await expect(field(page, 'Price')).toHaveValue('27');
  const restored = await servedText(page);
  expect(restored).toContain('Download Now – Just $27');
  expect(restored).not.toContain(headline);
  await expectNoViolations(page, { frames: false });
  await shoot(page, dir, 'restored');
});

test('the owner reorders and adds testimonials and edits a policy, and visitors see them', async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  const dir = process.env.SHOTS_DIR ?? testInfo.outputPath('shots');
  await page.goto('/#/admin/store');
  await expect(field(page, 'Price')).toBeVisible();

  const section = (title: string) =>
    page.locator('details').filter({ has: page.locator('summary', { hasText: title }) });
  const testimonials = section('Testimonials');
  await testimonials.locator('summary').click();
  const item = (n: number) =>
    testimonials.locator('fieldset fieldset').filter({ hasText: `Testimonial ${n}` });
  await testimonials.getByRole('button', { name: 'Add a testimonial' }).click();
  await item(4).getByLabel('Quote').fill('Ten quiet minutes a day changed my whole week.');
  await item(4).getByLabel('Name').fill('Lena P.');
  await testimonials.getByRole('button', { name: 'Move testimonial 4 up' }).click();
  await testimonials.getByRole('button', { name: 'Move testimonial 3 up' }).click();
  await testimonials.getByRole('button', { name: 'Move testimonial 2 up' }).click();
  await testimonials.getByRole('button', { name: 'Remove testimonial 4' }).click();
  await expect(item(1).getByLabel('Name')).toHaveValue('Lena P.');
  await expect(testimonials.locator('legend').getByText(/^Testimonial \d+$/)).toHaveCount(3);
  await expectNoViolations(page);
  await shoot(page, dir, 'testimonials');

  const policies = section('Policies');
  await policies.locator('summary').click();
  const privacy = field(page, 'Privacy policy');
  await privacy.press('End');
  await privacy.press('ControlOrMeta+End');
  await policies.getByRole('button', { name: 'Heading' }).first().click();
  await page.keyboard.type('Children');
  await privacy.press('ControlOrMeta+End');
  await page.keyboard.type('\n\nThis site is not meant for children under 16.');
  await shoot(page, dir, 'policies');

  // A photo for the top of the page, re-encoded by the server.
  const hero = page.getByRole('group', { name: 'Image', exact: true });
  const photo = await sharp({
    create: { width: 1600, height: 1200, channels: 3, background: '#9bb5a0' },
  })
    .jpeg()
    .toBuffer();
  await hero.getByLabel(/Replace image|Choose image…/).setInputFiles({
    name: 'calm-desk.jpg',
    mimeType: 'image/jpeg',
    buffer: photo,
  });
  await expect(hero).toHaveAttribute('data-upload', 'idle');
  await expect(hero.getByText('calm-desk.jpg')).toBeVisible();
  await hero.getByLabel('Description for screen readers').fill('A calm desk by a window');
  await expectNoViolations(page);
  await shoot(page, dir, 'image');

  await page.getByRole('button', { name: 'Publish' }).click();
  await expect(page.getByText(/is live/)).toBeVisible();

  // The photo as a picture of the server's variants, AVIF first.
  const home = await (await page.request.get('/')).text();
  expect(home).toMatch(
    /<picture><source type="image\/avif" srcSet="\/media\/[0-9a-f]{16}-480\.avif 480w, [^"]*1440\.avif 1440w"/,
  );
  expect(home).toContain('alt="A calm desk by a window"');

  // Without JavaScript: the new order, the new testimonial, the removed one gone.
  const served = await servedText(page);
  const [first, second] = ['Ten quiet minutes a day', 'By the end of the first week'].map((quote) =>
    served.indexOf(quote),
  );
  expect(first).toBeGreaterThan(-1);
  expect(second).toBeGreaterThan(first!);
  expect(served).not.toContain('I have tried so many apps');

  const visitor = await page.context().newPage();
  await visitor.goto('/#/privacy-policy');
  await expect(visitor.getByRole('heading', { level: 2, name: 'Children' })).toBeVisible();
  await expect(visitor.getByText('This site is not meant for children under 16.')).toBeVisible();
  await visitor.close();
});
