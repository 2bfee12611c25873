// The mailing list in a real browser: the popup's consent box → the confirmation email in the
// SMTP sink → the confirm page's button → the welcome email's unsubscribe link and page.
import type { Page } from '@playwright/test';
import { expectNoViolations } from './support';
import { expect, test, visitorEmail } from './forms-fixtures';

const SHOTS = process.env.SHOTS_DIR ?? 'test-results/shots/list';
const CHOICE_SHOTS = process.env.SHOTS_DIR ?? 'test-results/shots/list-more';
const viewports = [
  { name: '375', width: 375, height: 812 },
  { name: '1280', width: 1280, height: 800 },
];

async function openPopup(page: Page) {
  await page.goto('/');
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight / 2));
  const dialog = page.getByRole('dialog', { name: 'Free Mindfulness Guide' });
  await expect(dialog).toBeVisible();
  return dialog;
}

/** The path of the link in a mail's text that starts with the site's address and `prefix`. */
function pathIn(text: string, prefix: string): string {
  const match = new RegExp(`https?://[^\\s/]+(${prefix}[A-Za-z0-9_-]{43})`).exec(text);
  if (!match) throw new Error(`No ${prefix} link in: ${text}`);
  return match[1]!;
}

test('popup box → confirmation email → confirm by button → welcome → unsubscribe page with its choice', async ({
  page,
  smtpSink,
  stored,
}) => {
  await page.setViewportSize({ width: 375, height: 812 });
  const dialog = await openPopup(page);
  const box = dialog.getByLabel(/^Also send me occasional emails from /);
  await expect(box).not.toBeChecked();
  await page.screenshot({ path: `${SHOTS}/popup-375.png` });

  const email = visitorEmail('list');
  await dialog.getByLabel('Your Name *').fill('Ada');
  await dialog.getByLabel('Your Email *').fill(email);
  await box.check();
  await dialog.getByRole('button', { name: 'Get Your Free Guide' }).click();
  // The guide is given as always.
  await expect(dialog.getByRole('link', { name: 'Download Your Free Guide' })).toBeVisible();

  const confirmation = await smtpSink.waitFor(
    (mail) =>
      mail.envelopeTo.includes(email) && mail.subject === 'Please confirm your subscription',
  );
  const confirmPath = pathIn(confirmation.text, '/list/confirm/');
  for (const viewport of viewports) {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    await page.goto(confirmPath);
    await expect(page.getByRole('heading', { name: 'Confirm your subscription' })).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/confirm-${viewport.name}.png` });
  }
  await expectNoViolations(page);
  // Opening the page changed nothing.
  const status = async () =>
    (await stored.query('select status from list_subscribers where email = $1', [email]))[0]
      ?.status;
  expect(await status()).toBe('pending');
  await page.getByRole('button', { name: 'Yes, subscribe me' }).click();
  await expect(page.getByRole('heading', { name: 'Thank you!' })).toBeVisible();
  expect(await status()).toBe('confirmed');

  const welcome = await smtpSink.waitFor(
    (mail) => mail.envelopeTo.includes(email) && mail.subject.startsWith('Welcome'),
  );
  expect(welcome.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
  const unsubscribePath = pathIn(welcome.text, '/list/unsubscribe/');
  expect(welcome.headers['list-unsubscribe']).toContain(unsubscribePath);
  for (const viewport of viewports) {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    await page.goto(unsubscribePath);
    await expect(page.getByRole('heading', { name: 'Unsubscribe' })).toBeVisible();
    await expect(page.getByRole('radio', { name: /Only order emails/ })).toBeChecked();
    await page.screenshot({ path: `${CHOICE_SHOTS}/unsubscribe-${viewport.name}.png` });
  }
  await expectNoViolations(page);
  expect(await status()).toBe('confirmed');
  await page.getByRole('radio', { name: /Nothing I have not asked for/ }).check();
  await page.screenshot({ path: `${CHOICE_SHOTS}/unsubscribe-everything-1280.png` });
  await page.getByRole('button', { name: 'Unsubscribe' }).click();
  await expect(page.getByRole('heading', { name: 'You are unsubscribed' })).toBeVisible();
  await expect(page.getByText('We will not ask this address to join again')).toBeVisible();
  await expectNoViolations(page);
  await page.screenshot({ path: `${CHOICE_SHOTS}/unsubscribed-1280.png` });
  await page.setViewportSize({ width: 375, height: 812 });
  await page.screenshot({ path: `${CHOICE_SHOTS}/unsubscribed-375.png` });
  expect(await status()).toBe('unsubscribed');
  const scope = await stored.query(
    'select unsubscribed_scope from list_subscribers where email = $1',
    [email],
  );
  expect(scope[0]?.unsubscribed_scope).toBe('everything');
});

test('one-click POST as a mail provider sends it: no cookie, no origin, 200', async ({
  page,
  request,
  smtpSink,
  stored,
}) => {
  const dialog = await openPopup(page);
  const email = visitorEmail('oneclick');
  await dialog.getByLabel('Your Name *').fill('Bo');
  await dialog.getByLabel('Your Email *').fill(email);
  await dialog.getByLabel(/^Also send me occasional emails from /).check();
  await dialog.getByRole('button', { name: 'Get Your Free Guide' }).click();
  const confirmation = await smtpSink.waitFor(
    (mail) =>
      mail.envelopeTo.includes(email) && mail.subject === 'Please confirm your subscription',
  );
  expect((await request.post(pathIn(confirmation.text, '/list/confirm/'))).status()).toBe(200);
  const welcome = await smtpSink.waitFor(
    (mail) => mail.envelopeTo.includes(email) && mail.subject.startsWith('Welcome'),
  );
  const answer = await request.post(pathIn(welcome.text, '/list/unsubscribe/'), {
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    data: 'List-Unsubscribe=One-Click',
    maxRedirects: 0,
  });
  expect(answer.status()).toBe(200);
  const rows = await stored.query('select status from list_subscribers where email = $1', [email]);
  expect(rows[0]?.status).toBe('unsubscribed');
});

test('without the box: the guide, and no list email', async ({ page, smtpSink, stored }) => {
  const dialog = await openPopup(page);
  const email = visitorEmail('nolist');
  await dialog.getByLabel('Your Name *').fill('Cy');
  await dialog.getByLabel('Your Email *').fill(email);
  await dialog.getByRole('button', { name: 'Get Your Free Guide' }).click();
  await expect(dialog.getByRole('link', { name: 'Download Your Free Guide' })).toBeVisible();
  expect(await stored.query('select id from list_subscribers where email = $1', [email])).toEqual(
    [],
  );
  expect(smtpSink.messages.filter((mail) => mail.envelopeTo.includes(email))).toEqual([]);
});
