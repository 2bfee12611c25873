// Every public route is prerendered into the one HTML the server sends (the route is in the
// hash, which the browser never sends): the route's markup shows before any app script runs,
// the app hydrates it without a mismatch, and what a visitor typed meanwhile is kept.
import type { Page, Route } from '@playwright/test';
import { expect, test } from './fixtures';
import { recordAnalytics } from './support';

const routes = [
  { hash: '#/thank-you', h1: 'Thank You for Your Purchase!', view: 'thank_you' },
  { hash: '#/privacy-policy', h1: 'Privacy Policy', view: 'privacy_policy' },
  { hash: '#/refund-policy', h1: 'Refund Policy', view: 'refund_policy' },
  { hash: '#/terms-of-service', h1: 'Terms of Service', view: 'terms_of_service' },
  { hash: '#/contact-us', h1: 'Get in Touch', view: 'contact_us' },
];

/** Holds the app's entry module until `release()` (so goto cannot wait for load): the page is then exactly the served HTML. */
async function holdApp(page: Page) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/assets/index-*.js', async (route: Route) => {
    await released;
    await route.continue();
  });
  return release;
}

test('the served HTML carries every public route, each with its own h1', async ({ request }) => {
  const html = await (await request.get('/')).text();
  for (const { hash, h1 } of routes) {
    const template = new RegExp(`<template data-route="${hash.slice(1)}">([\\s\\S]*?)</template>`);
    const markup = template.exec(html)?.[1] ?? '';
    expect(markup, hash).toMatch(new RegExp(`<h1[^>]*>${h1}</h1>`));
    expect(markup, hash).toContain('<footer');
  }
});

for (const { hash, h1, view } of routes) {
  test(`${hash} shows its prerendered markup before the app runs, then hydrates it`, async ({
    page,
  }) => {
    const analytics = recordAnalytics(page);
    const release = await holdApp(page);
    await page.goto(`/${hash}`, { waitUntil: 'commit' });
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(h1);
    await expect(page.locator('footer')).toContainText(`© ${new Date().getFullYear()}`);
    expect(analytics).toEqual([]);
    // The very element the server sent must survive: a mismatch would replace it.
    await page.evaluate(() => {
      (window as unknown as { prerenderedH1?: Element }).prerenderedH1 =
        document.querySelector('h1') ?? undefined;
    });

    release();
    await expect.poll(() => analytics).toContain(`[analytics] page_view ${view} {}`);
    expect(
      await page.evaluate(
        () =>
          document.querySelector('h1') ===
          (window as unknown as { prerenderedH1?: Element }).prerenderedH1,
      ),
    ).toBe(true);
    // The consoleErrors fixture fails the test on any hydration error or CSP violation.
  });
}

test('what a visitor types before the app hydrates the contact form is kept and sent', async ({
  page,
}) => {
  const analytics = recordAnalytics(page);
  const release = await holdApp(page);
  await page.goto('/#/contact-us', { waitUntil: 'commit' });
  const form = page.getByRole('form', { name: 'Contact form' });
  await form.getByLabel('Full Name').fill('Early Visitor');
  await form.getByLabel('Email').fill(`early-${Date.now()}@example.com`);
  await form.getByLabel('Message').fill('Typed before the scripts arrived.');

  release();
  await expect.poll(() => analytics).toContain('[analytics] page_view contact_us {}');
  await expect(form.getByLabel('Full Name')).toHaveValue('Early Visitor');
  await expect(form.getByLabel('Message')).toHaveValue('Typed before the scripts arrived.');
  const submit = form.getByRole('button', { name: 'Send Message' });
  await expect(submit).toBeEnabled();
  await submit.click();
  await expect(form.getByRole('status')).toContainText('Message sent successfully!');
});

test('a route without prerendered markup never shows the home page meanwhile', async ({ page }) => {
  const release = await holdApp(page);
  await page.goto('/#/login', { waitUntil: 'commit' });
  await expect(page.locator('#root')).toBeHidden();
  release();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.locator('#hero')).toHaveCount(0);
});
