import { readFile } from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';
import { backupPath } from '../../src/shared/admin/backup-api';
import { adminTest, createRow } from './admin-fixtures';
import { expect } from './fixtures';
import { expectNoViolations } from './support';

const test = adminTest({}, async (world) => {
  await createRow(world, 'refund_inquiries', {
    name: 'Backed Up Person',
    email: 'kept@example.com',
    message: 'Keep me safe ✓',
  });
  return {};
});

test.describe.configure({ mode: 'serial' });

test('the Backup page downloads the whole database as one dated file', async ({ page }) => {
  await page.goto('/#/admin');
  await page
    .getByRole('navigation', { name: 'Admin pages' })
    .getByRole('link', { name: 'Backup' })
    .click();
  await expect(page.getByRole('heading', { name: 'Backup' })).toBeVisible();
  await expect(page).toHaveURL(/#\/admin\/backup$/);
  await expectNoViolations(page);

  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download backup' }).click();
  const download = await downloading;
  const today = new Date().toISOString().slice(0, 10);
  expect(download.suggestedFilename()).toMatch(
    new RegExp(`^soul-reset-backup-${today}T\\d\\d-\\d\\d-\\d\\dZ\\.jsonl\\.gz$`),
  );
  await expect(
    page.getByText(`Saved ${download.suggestedFilename()} to your downloads.`),
  ).toBeVisible();

  const text = gunzipSync(await readFile((await download.path())!)).toString('utf8');
  const lines = text.trim().split('\n');
  const header = JSON.parse(lines[0]!);
  expect(header).toMatchObject({
    format: 'soul-reset-backup',
    version: 1,
    source: 'embedded-postgres',
  });
  expect(header.tables.find((t: { name: string }) => t.name === 'refund_inquiries').rows).toBe(1);
  expect(text).toContain('"Keep me safe ✓"');
  expect(JSON.parse(lines.at(-1)!)).toMatchObject({ end: true });
  await expectNoViolations(page);
});

test('a failed backup says why, and the button stays ready to try again', async ({
  page,
  consoleErrors,
}) => {
  await page.route(`**${backupPath}`, (route) =>
    route.fulfill({
      status: 503,
      json: {
        error: 'Service Unavailable',
        message: 'The service is temporarily unavailable. Please try again in a moment.',
      },
    }),
  );
  await page.goto('/#/admin/backup');
  await page.getByRole('button', { name: 'Download backup' }).click();
  await expect(page.getByRole('alert')).toHaveText(
    'The service is temporarily unavailable. Please try again in a moment.',
  );
  await expect(page.getByRole('button', { name: 'Download backup' })).toBeEnabled();
  // The browser reports the refused request itself; nothing else went wrong.
  expect(consoleErrors).toEqual([expect.stringContaining('status of 503')]);
  consoleErrors.length = 0;
  await expectNoViolations(page);
});
