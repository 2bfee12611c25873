import type { APIRequestContext, Page } from '@playwright/test';
import Papa from 'papaparse';
import { readFile } from 'node:fs/promises';
import { tableRowPath } from '../../src/shared/admin/table-api';
import type { TableRow } from '../../src/shared/admin/table-config';
import {
  adminTest,
  bodyRows,
  createRow,
  panel as tablePanel,
  storedRow as storedRowOf,
} from './admin-fixtures';
import { expect } from './fixtures';
import { expectNoViolations } from './support';

const TABLE = 'refund_inquiries';
const PANEL = 'Refund Inquiries';

// The owner starts from 12 refund inquiries, seeded through the API (oldest first).
const test = adminTest({}, async (world) => {
  const seeded: TableRow[] = [];
  for (let i = 1; i <= 12; i += 1) {
    seeded.push(
      await createRow(world, TABLE, {
        name: i === 12 ? '=HYPERLINK("http://evil.example")' : `Person ${i}`,
        email: `person${i}@example.com`,
        message: i === 11 ? '@SUM(1+1)\nsecond line' : `Message ${i}`,
        email_sent: i % 2 === 0,
        email_sent_at: i % 2 === 0 ? '2025-05-15T09:30:00Z' : null,
        notes: i === 12 ? '<p>Called <strong>twice</strong></p><script>alert(1)</script>' : '',
      }),
    );
  }
  return { seeded };
});

test.describe.configure({ mode: 'serial' });

const panel = (page: Page, name = PANEL) => tablePanel(page, name);
const storedRow = (request: APIRequestContext, id: number) => storedRowOf(request, TABLE, id);

test('the admin table page shows one panel per configured table, in order', async ({ page }) => {
  await page.goto('/#/admin');
  const names = [
    'Contact Us Submissions',
    'Form Submissions',
    'Free Product Gift Submissions',
    'Refund Inquiries',
    'Soul Reset Submissions',
    'Terms of Service Feedback',
  ];
  await expect(page.getByRole('main').getByRole('heading', { level: 3 })).toHaveText(names);
  for (const name of names) {
    await expect(panel(page, name).getByRole('button', { name: 'Export CSV' })).toBeVisible();
    await expect(panel(page, name).getByRole('button', { name: 'Add New' })).toBeVisible();
  }
  // A table with no rows has no footer.
  await expect(panel(page, 'Soul Reset Submissions').getByText(/^Page \d/)).toHaveCount(0);
});

test('pages through 12 rows: newest first, footer, buttons disabled at the ends', async ({
  page,
}) => {
  await page.goto('/#/admin');
  const refunds = panel(page);
  await expect(refunds.getByText('Page 1 of 2 (12 items)')).toBeVisible();
  await expect(bodyRows(refunds)).toHaveCount(10);
  await expect(bodyRows(refunds).first()).toContainText('person12@example.com');
  await expect(refunds.getByRole('button', { name: 'Previous page' })).toBeDisabled();
  // Header: Actions, then every field but rich text.
  await expect(refunds.getByRole('columnheader')).toHaveText([
    'Actions',
    'ID',
    'Name',
    'Email',
    'Message',
    'Email Sent',
    'Email Sent At',
    'Created At',
    'Updated At',
  ]);
  const second = bodyRows(refunds).nth(1); // person 11: email not sent
  await expect(second.getByRole('cell').nth(5)).toHaveText('No');
  await expect(second.getByRole('cell').nth(6)).toHaveText('N/A');
  await expect(bodyRows(refunds).first().getByRole('cell').nth(5)).toHaveText('Yes');
  await expect(bodyRows(refunds).first().getByRole('cell').nth(6)).toHaveText(
    await page.evaluate(() => new Date('2025-05-15T09:30:00Z').toLocaleString()),
  );

  await refunds.getByRole('button', { name: 'Next page' }).click();
  await expect(refunds.getByText('Page 2 of 2 (12 items)')).toBeVisible();
  await expect(bodyRows(refunds)).toHaveCount(2);
  await expect(bodyRows(refunds).last()).toContainText('person1@example.com');
  await expect(refunds.getByRole('button', { name: 'Next page' })).toBeDisabled();
  await refunds.getByRole('button', { name: 'Previous page' }).click();
  await expect(refunds.getByText('Page 1 of 2 (12 items)')).toBeVisible();
});

test('adds a row: a missing required field is named, then the new row is listed first', async ({
  page,
}) => {
  await page.goto('/#/admin');
  const refunds = panel(page);
  await expect(refunds.getByText(/\(12 items\)/)).toBeVisible();
  await refunds.getByRole('button', { name: 'Add New' }).click();
  const dialog = page.getByRole('dialog', { name: `Add New ${PANEL}` });
  await expect(dialog).toBeVisible();
  // Inputs by type; id, created_at and updated_at are not editable.
  await expect(dialog.getByRole('textbox', { name: 'Name', exact: true })).toHaveValue('');
  await expect(dialog.getByRole('textbox', { name: 'Message', exact: true })).toHaveAttribute(
    'rows',
    '4',
  );
  await expect(dialog.getByRole('checkbox', { name: 'Email Sent' })).not.toBeChecked();
  await expect(dialog.getByLabel('Email Sent At')).toHaveAttribute('type', 'datetime-local');
  await expect(dialog.getByText('Created At')).toHaveCount(0);

  await dialog.getByRole('textbox', { name: 'Email', exact: true }).fill('new@example.com');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('Field "Name" is required.')).toBeVisible();
  await expect(dialog).toBeVisible();

  await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill('Newest Person');
  await dialog.getByRole('checkbox', { name: 'Email Sent' }).check();
  await dialog.getByLabel('Email Sent At').fill('2025-06-01T08:15');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(refunds.getByText('Page 1 of 2 (13 items)')).toBeVisible();
  const first = bodyRows(refunds).first();
  await expect(first).toContainText('Newest Person');
  const id = Number(await first.getByRole('cell').nth(1).textContent());
  const stored = await storedRow(page.request, id);
  // The browser's local time, stored as the instant it names.
  const expected = await page.evaluate(() => new Date('2025-06-01T08:15').toISOString());
  expect(stored).toMatchObject({
    name: 'Newest Person',
    email_sent: true,
    email_sent_at: expected,
  });
});

test('edits a row, rich text included; the server stores sanitised HTML', async ({
  page,
  world,
}) => {
  await page.goto('/#/admin');
  const refunds = panel(page);
  const target = world.seeded[6]!; // Person 7, on the first page
  await expect(refunds.getByText(/items\)/)).toBeVisible();
  await refunds.getByRole('button', { name: `Edit row ${target.id}` }).click();
  const dialog = page.getByRole('dialog', { name: `Edit ${PANEL}` });
  await expect(dialog.getByRole('textbox', { name: 'Name', exact: true })).toHaveValue('Person 7');
  await dialog.getByRole('textbox', { name: 'Message', exact: true }).fill('Changed message');
  const editor = dialog.locator('.ql-editor');
  await expect(editor).toBeVisible();
  await editor.click();
  await page.keyboard.type('Refund sent ');
  await page.keyboard.press('Control+b');
  await page.keyboard.type('today');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(refunds.getByRole('row').filter({ hasText: 'Changed message' })).toHaveCount(1);
  const stored = await storedRow(page.request, target.id);
  expect(stored?.notes).toBe('<p>Refund sent <strong>today</strong></p>');
  expect(Date.parse(String(stored?.updated_at))).toBeGreaterThan(
    Date.parse(String(target.updated_at)),
  );

  // A script stored through the API never reached the database.
  const scripted = await storedRow(page.request, world.seeded[11]!.id);
  expect(scripted?.notes).toBe('<p>Called <strong>twice</strong></p>');
});

test('deletes a row after the confirmation; declining keeps it; a failure is alerted', async ({
  page,
  world,
  consoleErrors,
}) => {
  await page.goto('/#/admin');
  const refunds = panel(page);
  const keep = world.seeded[3]!;
  const remove = world.seeded[4]!;
  await expect(refunds.getByText(/items\)/)).toBeVisible();
  await refunds
    .getByRole('button', { name: 'Next page' })
    .click()
    .catch(() => {});
  await refunds
    .getByRole('button', { name: 'Previous page' })
    .click()
    .catch(() => {});

  const messages: string[] = [];
  page.once('dialog', (dialog) => {
    messages.push(dialog.message());
    void dialog.dismiss();
  });
  await refunds.getByRole('button', { name: `Delete row ${keep.id}` }).click();
  await expect.poll(() => messages).toEqual(['Are you sure you want to delete this item?']);
  expect(await storedRow(page.request, keep.id)).toBeDefined();

  const countText = await refunds.getByText(/items\)/).textContent();
  const before = Number(/\((\d+) items\)/.exec(countText!)![1]);
  page.once('dialog', (dialog) => void dialog.accept());
  await refunds.getByRole('button', { name: `Delete row ${remove.id}` }).click();
  await expect(refunds.getByText(`(${before - 1} items)`)).toBeVisible();
  await expect(refunds.getByRole('button', { name: `Delete row ${remove.id}` })).toHaveCount(0);
  expect(await storedRow(page.request, remove.id)).toBeUndefined();

  // Someone else deleted the row first: the server's 404 message is alerted.
  const gone = world.seeded[5]!;
  const deleted = await page.request.delete(tableRowPath(TABLE, gone.id), {
    headers: { origin: world.origin },
  });
  expect(deleted.status()).toBe(204);
  const alerts: string[] = [];
  page.on('dialog', (dialog) => {
    alerts.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.accept();
  });
  await refunds.getByRole('button', { name: `Delete row ${gone.id}` }).click();
  await expect
    .poll(() => alerts)
    .toEqual([
      'confirm: Are you sure you want to delete this item?',
      `alert: Error deleting item: ${PANEL} has no row with id ${gone.id}.`,
    ]);
  // Chromium logs the 404 answer itself.
  expect(consoleErrors).toEqual([expect.stringContaining('status of 404')]);
  consoleErrors.length = 0;
});

test('exports the loaded page as CSV with display-name headers and formulas escaped', async ({
  page,
}) => {
  await page.goto('/#/admin');
  const refunds = panel(page);
  await expect(bodyRows(refunds)).toHaveCount(10);
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    refunds.getByRole('button', { name: 'Export CSV' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('Refund_Inquiries.csv');
  const text = (await readFile((await download.path())!, 'utf8')).replace(/^\uFEFF/, '');
  const parsed = Papa.parse<string[]>(text.trim());
  expect(parsed.errors).toEqual([]);
  const [header, ...rows] = parsed.data;
  expect(header).toEqual([
    'Name',
    'Email',
    'Message',
    'Email Sent',
    'Email Sent At',
    'Notes',
    'Created At',
    'Updated At',
  ]);
  expect(rows).toHaveLength(10);
  const byEmail = new Map(rows.map((row) => [row[1], row]));
  const evil = byEmail.get('person12@example.com')!;
  expect(evil[0]).toBe(`'=HYPERLINK("http://evil.example")`);
  expect(evil[3]).toBe('Yes');
  expect(evil[4]).toBe('2025-05-15T09:30:00.000Z');
  expect(evil[5]).toBe('Called twice');
  const at = byEmail.get('person11@example.com')!;
  expect(at[2]).toBe(`'@SUM(1+1)\nsecond line`);
  expect(at[3]).toBe('No');
  expect(at[4]).toBe('');
});

test('a failed save shows the server message in the open modal; Escape closes it', async ({
  page,
  world,
  consoleErrors,
}) => {
  await page.goto('/#/admin');
  const refunds = panel(page);
  const target = world.seeded[7]!; // Person 8, on the first page
  await refunds.getByRole('button', { name: `Edit row ${target.id}` }).click();
  const dialog = page.getByRole('dialog', { name: `Edit ${PANEL}` });
  await expect(dialog.getByRole('textbox', { name: 'Name', exact: true })).toHaveValue('Person 8');
  const deleted = await page.request.delete(tableRowPath(TABLE, target.id), {
    headers: { origin: world.origin },
  });
  expect(deleted.status()).toBe(204);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText(`${PANEL} has no row with id ${target.id}.`)).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Save' })).toBeEnabled();
  expect(consoleErrors).toEqual([expect.stringContaining('status of 404')]);
  consoleErrors.length = 0;
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(refunds.getByRole('button', { name: `Edit row ${target.id}` })).toBeFocused();
});

for (const viewport of [
  { name: 'mobile', width: 375, height: 812 },
  { name: 'desktop', width: 1280, height: 800 },
]) {
  test(`at ${viewport.name} width, the tables and the open row form pass axe-core`, async ({
    page,
    world,
  }) => {
    await page.setViewportSize(viewport);
    await page.goto('/#/admin');
    const refunds = panel(page);
    await expect(bodyRows(refunds)).toHaveCount(10);
    // The grid scrolls inside its panel, never the page.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(viewport.width);
    await expectNoViolations(page);
    await refunds.getByRole('button', { name: `Edit row ${world.seeded[8]!.id}` }).click();
    const dialog = page.getByRole('dialog', { name: `Edit ${PANEL}` });
    await expect(dialog.locator('.ql-editor')).toBeVisible();
    await expectNoViolations(page);
  });
}
