// The owner's view of email delivery: each record's state in the grid, and the Deliveries log.
import type { Page } from '@playwright/test';
import { adminTest, panel } from './admin-fixtures';
import { expect } from './fixtures';
import { expectNoViolations } from './support';

const SHOTS = process.env.SCREENSHOT_DIR;

// Three refund requests: the first emailed at once, the other two refused by the mail server,
// so they wait for a retry an hour away (MAIL_RETRY_DELAYS).
const test = adminTest({ MAIL_RETRY_DELAYS: '3600', FORM_RATE_LIMIT: '100' }, async (world) => {
  const submit = async (email: string) => {
    const response = await world.request.post('/api/forms/refund', {
      data: { name: 'Grace Hopper', email, message: 'Please refund my order.' },
    });
    expect(response.status()).toBe(200);
    // A refund request is answered before the worker sends its email.
    expect(await response.json()).toEqual({ status: 'success', emailSent: false });
  };
  await submit('delivered@example.com');
  await world.sink.waitFor((mail) => mail.headers['reply-to'] === 'delivered@example.com');
  world.sink.rejectAll(true);
  await submit('refused@example.com');
  await submit('waiting@example.com');
  await expect
    .poll(async () => {
      const log = await world.request.get('/api/admin/deliveries?state=retrying');
      return ((await log.json()) as { count: number }).count;
    })
    .toBe(2);
  world.sink.rejectAll(false);
  return {};
});

test.describe.configure({ mode: 'serial' });

async function shoot(page: Page, name: string) {
  if (!SHOTS) return;
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true });
  }
}

test('the admin grid shows each record’s delivery state, and resends one', async ({
  page,
  world,
}) => {
  await page.goto('/#/admin');
  const refunds = panel(page, 'Refund Inquiries');
  const refused = refunds.getByRole('row').filter({ hasText: 'refused@example.com' });
  const delivered = refunds.getByRole('row').filter({ hasText: 'delivered@example.com' });
  await expect(delivered).toContainText('Sent');
  await expect(refused).toContainText('Retrying');
  await expect(refused).toContainText('Next attempt');
  await expect(refused).toContainText('550');
  await expectNoViolations(page);
  await shoot(page, 'admin-grid-delivery-states');

  await page.setViewportSize({ width: 1280, height: 900 });
  await refused.getByRole('button', { name: /^Resend the email of record/ }).click();
  await world.sink.waitFor((mail) => mail.headers['reply-to'] === 'refused@example.com');
  await page.reload();
  await expect(refused).toContainText('Yes');
  await expect(refused).toContainText('Sent');
});

test('the Deliveries page lists every email, filters by state and resends', async ({
  page,
  world,
}) => {
  await page.goto('/#/admin');
  await page.getByRole('link', { name: 'Deliveries' }).click();
  await expect(page.getByRole('heading', { name: 'Deliveries' })).toBeVisible();
  const log = page.getByRole('region', { name: 'Email deliveries' });
  // One row per email: the resend of the first test sent the waiting row itself.
  await expect(log.getByRole('listitem')).toHaveCount(3);
  await expect(log.getByRole('button', { name: 'All 3' })).toHaveAttribute('aria-pressed', 'true');
  await expectNoViolations(page);
  await shoot(page, 'deliveries-all');

  await page.setViewportSize({ width: 1280, height: 900 });
  await log.getByRole('button', { name: /^Retrying/ }).click();
  await expect(log.getByRole('listitem')).toHaveCount(1);
  await expect(log.getByRole('listitem')).toContainText('Last error: ');
  await expect(log.getByRole('listitem')).toContainText('Next attempt');
  await shoot(page, 'deliveries-retrying');

  await page.setViewportSize({ width: 1280, height: 900 });
  await log.getByRole('button', { name: /^Failed/ }).click();
  await expect(log.getByText('No failed emails.')).toBeVisible();
  await shoot(page, 'deliveries-empty-filter');

  await page.setViewportSize({ width: 1280, height: 900 });
  await log.getByRole('button', { name: /^Sent/ }).click();
  await expect(log.getByRole('listitem')).toHaveCount(2);
  const before = world.sink.messages.length;
  await log
    .getByRole('button', { name: /^Resend email/ })
    .first()
    .click();
  await expect(log.getByRole('status')).toContainText('was queued again');
  await expect.poll(() => world.sink.messages.length).toBe(before + 1);
});
