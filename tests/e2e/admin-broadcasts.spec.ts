// Admin → Broadcasts in a real browser against the real server, its database and an SMTP sink:
// the sender-missing refusal and the way to the Store's sender fields, a draft written in the
// rich-text editor, its preview and test send, a schedule, a send with live progress, pause
// and resume, its results; the follow-up sequence. Every state at 375 and 1280 px, axe-clean.
import type { Page } from '@playwright/test';
import pg from 'pg';
import { ADMIN_BROADCASTS_PATH } from '../../src/shared/broadcasts/broadcasts-api';
import { withAdminClient } from '../support/postgres-admin';
import { ADMIN, adminTest } from './admin-fixtures';
import { expect as baseExpect } from './fixtures';
import { expectNoViolations } from './support';

// Two busy cores: the page's first fetches can take longer than the default 5 s.
const expect = baseExpect.configure({ timeout: 20_000 });
const SHOTS = process.env.SHOTS_DIR ?? 'test-results/shots/broadcasts';
const SUBSCRIBERS = 12;
const database = `bcast_ui_e2e_${process.pid}`;
let pool: pg.Pool | undefined;

const test = adminTest(
  async () => {
    const adminUrl = process.env.TEST_DATABASE_URL;
    if (!adminUrl) throw new Error('Set TEST_DATABASE_URL: this file seeds subscribers by SQL.');
    await withAdminClient(adminUrl, async (client) => {
      await client.query(`drop database if exists "${database}" with (force)`);
      await client.query(`create database "${database}"`);
    });
    const url = new URL(adminUrl);
    url.pathname = `/${database}`;
    pool = new pg.Pool({ connectionString: url.toString(), max: 2 });
    // One message a second: a send lasts long enough to be watched, paused and resumed.
    return { DATABASE_URL: url.toString(), MAIL_RATE_PER_SECOND: '1' };
  },
  async () => {
    await pool!.query(
      `insert into list_subscribers (email, name, status, source, confirmed_at)
       select 'reader' || n || '@example.com', 'Reader ' || n, 'confirmed', 'free-guide', now()
       from generate_series(1, $1::int) n`,
      [SUBSCRIBERS],
    );
    return {};
  },
);

test.afterAll(async () => {
  await pool?.end();
});

/** Screenshots of the page as it is, at phone and desktop widths (desktop left on). */
async function shoot(page: Page, name: string) {
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: width === 375 ? 812 : 800 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(width);
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true });
  }
}

async function typeBody(page: Page, text: string) {
  const editor = page.getByRole('textbox', { name: 'Email' });
  await editor.click();
  await page.keyboard.type(text);
}

test('broadcasts: sender missing, draft, preview, test, schedule, send, pause, results', async ({
  page,
  world,
  consoleErrors,
}) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1280, height: 800 });

  // Loading and a failed fetch, held or refused in the browser on the way to the real route.
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(`**${ADMIN_BROADCASTS_PATH}`, async (route) => {
    await held;
    // The page may have been reloaded meanwhile, which ends the request.
    await route.continue().catch(() => undefined);
  });
  await page.goto('/#/admin/broadcasts');
  await expect(page.getByText('Loading broadcasts…')).toBeVisible({ timeout: 30_000 });
  await shoot(page, 'list-loading');
  await page.unroute(`**${ADMIN_BROADCASTS_PATH}`);
  release();
  await page.route(`**${ADMIN_BROADCASTS_PATH}`, (route) =>
    route.fulfill({
      status: 500,
      json: { error: 'Internal Server Error', message: 'The database did not answer.' },
    }),
  );
  await page.reload();
  await expect(page.getByRole('alert').filter({ hasText: 'Could not load' })).toBeVisible({
    timeout: 30_000,
  });
  await shoot(page, 'list-error');
  await page.unroute(`**${ADMIN_BROADCASTS_PATH}`);
  expect(consoleErrors).toEqual([expect.stringContaining('status of 500')]);
  consoleErrors.length = 0;

  // Empty, and the live store has no sender yet: said before anything is tried.
  await page.reload();
  await expect(page.getByText('No broadcasts yet')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText('Add the sender first')).toBeVisible();
  await shoot(page, 'list-empty-sender-missing');
  await expectNoViolations(page);

  // A draft in the rich-text editor.
  await page.getByRole('button', { name: 'New broadcast' }).click();
  await page.getByLabel('Subject').fill('Three quiet evenings');
  await page.getByLabel('Preview text (optional)').fill('A short ritual for the week');
  await typeBody(page, 'Hello! This week: three short evening rituals.');
  await page.getByRole('checkbox', { name: /Leave out buyers/ }).check();
  await page.getByRole('button', { name: 'Save draft' }).click();
  await expect(page.getByText('Draft saved.')).toBeVisible();
  await expect(page.getByText('Draft', { exact: true })).toBeVisible();
  await shoot(page, 'draft');
  await expectNoViolations(page);

  await page.getByRole('button', { name: 'Preview' }).click();
  const phone = page.locator('iframe[title="Broadcast preview at phone width"]');
  await expect(phone).toHaveAttribute('width', '375');
  await expect(phone.contentFrame().getByText('three short evening rituals')).toBeVisible();
  // The email's inline styles apply (its own document, its own policy): the preheader is
  // hidden and the body has the email's font; the page logged no policy violation.
  await expect(phone.contentFrame().getByText('A short ritual for the week')).toBeHidden();
  expect(
    await phone
      .contentFrame()
      .locator('body')
      .evaluate((body) => getComputedStyle(body).fontFamily),
  ).toContain('Arial');
  await expect(page.locator('iframe[title="Broadcast preview at desktop width"]')).toHaveAttribute(
    'width',
    '1280',
  );
  await shoot(page, 'draft-preview');
  await expectNoViolations(page, { frames: false });

  // Refused without a sender: the reason and the way to the fields.
  page.once('dialog', (dialog) => void dialog.accept());
  await page.getByRole('button', { name: 'Send to subscribers' }).click();
  const refusal = page.getByRole('alert').filter({ hasText: 'the sender is missing' });
  await expect(refusal).toBeVisible();
  await shoot(page, 'send-refused-sender-missing');
  await expectNoViolations(page, { frames: false });
  expect(consoleErrors).toEqual([expect.stringContaining('status of 409')]);
  consoleErrors.length = 0;

  await refusal.getByRole('link', { name: 'Open Store → Sender' }).click();
  await expect(page).toHaveURL(/#\/admin\/store#sender$/);
  const sender = page.locator('details#sender');
  await expect(sender).toHaveAttribute('open', '');
  await sender.getByLabel('Sender name').fill('Mara Quinn, Soul Reset');
  await sender.getByLabel('Postal address').fill('12 Linden Lane\nPortland, OR 97201\nUSA');
  await sender.scrollIntoViewIfNeeded();
  await shoot(page, 'store-sender');
  await expectNoViolations(page);
  await page.getByRole('button', { name: 'Publish' }).click();
  await expect(page.getByText(/is live/)).toBeVisible();

  // The sender now shows on the page; the draft is sent to the owner as a test.
  await page.goto('/#/admin/broadcasts');
  await expect(page.getByText('Mara Quinn, Soul Reset')).toBeVisible();
  await page.getByRole('button', { name: /Three quiet evenings/ }).click();
  await page.getByRole('button', { name: 'Send me a test' }).click();
  await expect(page.getByText(`Test email sent to ${ADMIN}.`)).toBeVisible();
  const testMail = await world.sink.waitFor(
    (mail) => mail.envelopeTo.includes(ADMIN) && mail.subject.includes('Three quiet evenings'),
  );
  expect(testMail.text).toContain('12 Linden Lane');

  // Another one, scheduled for tomorrow.
  await page.getByRole('button', { name: 'All broadcasts' }).click();
  await page.getByRole('button', { name: 'New broadcast' }).click();
  await page.getByLabel('Subject').fill('The winter offer');
  await typeBody(page, 'Our bundle, for the darker weeks.');
  await page.getByRole('radio', { name: /At a time/ }).check();
  const tomorrow = new Date(Date.now() + 86_400_000);
  const local = new Date(tomorrow.getTime() - tomorrow.getTimezoneOffset() * 60_000)
    .toISOString()
    .slice(0, 16);
  await page.getByLabel('Date and time (your time zone)').fill(local);
  await page.getByRole('button', { name: 'Schedule' }).click();
  await expect(page.getByText('You can still change it until then.')).toBeVisible();
  await expect(page.getByText('Scheduled', { exact: true })).toBeVisible();
  await shoot(page, 'scheduled');
  await expectNoViolations(page, { frames: false });

  // Sending: the counts move by themselves, one message a second.
  await page.getByRole('button', { name: 'All broadcasts' }).click();
  await page.getByRole('button', { name: /Three quiet evenings/ }).click();
  page.once('dialog', (dialog) => void dialog.accept());
  await page.getByRole('button', { name: 'Send to subscribers' }).click();
  await expect(page.getByText('Sending has started.')).toBeVisible();
  const bar = page.getByRole('progressbar');
  await expect(page.getByText('Sending', { exact: true })).toBeVisible();
  await expect
    .poll(async () => Number(await bar.getAttribute('aria-valuenow')), { timeout: 20_000 })
    .toBeGreaterThan(0);
  await shoot(page, 'sending');
  await expectNoViolations(page, { frames: false });

  await page.getByRole('button', { name: 'Pause' }).click();
  await expect(page.getByText('Paused', { exact: true })).toBeVisible();
  await shoot(page, 'paused');
  await expectNoViolations(page, { frames: false });
  await page.getByRole('button', { name: 'Resume' }).click();
  await expect(bar).toHaveAttribute('aria-valuenow', '100', { timeout: 60_000 });
  await expect(
    page.locator('header').filter({ hasText: 'Three quiet evenings' }).getByText('Sent', {
      exact: true,
    }),
  ).toBeVisible({ timeout: 10_000 });
  await expect(page.getByRole('region', { name: 'Results' })).toContainText('Purchases');
  await shoot(page, 'sent');
  await expectNoViolations(page, { frames: false });
  const delivered = world.sink.messages.filter((mail) =>
    mail.envelopeTo.some((to) => to.startsWith('reader')),
  );
  expect(new Set(delivered.map((mail) => mail.envelopeTo.join())).size).toBe(SUBSCRIBERS);
  expect(delivered).toHaveLength(SUBSCRIBERS);

  await page.getByRole('button', { name: 'All broadcasts' }).click();
  // The rows of the list, not the admin menu's items.
  await expect(
    page.getByRole('region', { name: 'Your broadcasts' }).getByRole('listitem'),
  ).toHaveCount(2);
  await shoot(page, 'list');
  await expectNoViolations(page);
});

test('follow-up sequence: empty, steps with their delays, saved on', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/#/admin/broadcasts?view=sequence');
  await expect(page.getByText('No emails in the sequence yet.')).toBeVisible({ timeout: 30_000 });
  await shoot(page, 'sequence-empty');
  await expectNoViolations(page);

  await page.getByRole('button', { name: 'Add an email' }).click();
  await page.getByLabel('Subject').fill('Your guide, again');
  await typeBody(page, 'Here is the guide you asked for.');
  await page.getByRole('button', { name: 'Add an email' }).click();
  const second = page.getByRole('group', { name: /Email 2/ });
  await second.getByLabel('Days after confirming').fill('3');
  await second.getByLabel('Subject').fill('A story from a reader');
  await second.getByRole('textbox', { name: 'Email' }).click();
  await page.keyboard.type('She found ten minutes a day.');
  await page.getByRole('switch', { name: 'Sequence active' }).check({ force: true });
  await expect(page.getByText('Unsaved changes')).toBeVisible();
  await page.getByRole('button', { name: 'Save sequence' }).click();
  await expect(page.getByText(/^Sequence saved\. New subscribers get each email/)).toBeVisible();
  await expect(page.getByText('3 days after confirming')).toBeVisible();
  await expect(page.getByText('Got it')).toHaveCount(2);
  await shoot(page, 'sequence-saved');
  await expectNoViolations(page);

  await page.reload();
  await expect(page.getByRole('switch', { name: 'Sequence active' })).toBeChecked();
  await expect(page.getByLabel('Subject').nth(1)).toHaveValue('A story from a reader');
});
