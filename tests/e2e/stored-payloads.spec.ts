import Papa from 'papaparse';
import { readFile } from 'node:fs/promises';
import { tableRowPath } from '../../src/shared/admin/table-api';
import { formApiPath } from '../../src/shared/forms/form-api';
import type { FormKind } from '../../src/shared/forms/form-fields';
import { adminTest, bodyRows, panel, storedRow } from './admin-fixtures';
import { expect } from './fixtures';

// Each payload, if it ever ran, would set window.pwned (and an <img src=x> would also fail to
// load, which the console fixture reports).
const NAME = '<img src=x onerror="window.pwned=1">';
const MESSAGE = '=1+1<script>window.pwned=2</script><a href="javascript:window.pwned=3">x</a>';
const NOTES =
  '<p>Note</p><img src="x" onerror="window.pwned=4"><a href="javascript:window.pwned=5">link</a>' +
  '<script>window.pwned=6</script><svg onload="window.pwned=7"></svg>';

const forms: { form: FormKind; panel: string; message: boolean }[] = [
  { form: 'order', panel: 'Form Submissions', message: true },
  { form: 'contact', panel: 'Form Submissions', message: true },
  { form: 'refund', panel: 'Refund Inquiries', message: true },
  { form: 'terms-feedback', panel: 'Terms of Service Feedback', message: true },
  { form: 'free-guide', panel: 'Free Product Gift Submissions', message: false },
];

const emailOf = (form: FormKind) => `payload-${form}@example.com`;

// Every public form receives the payloads, as a visitor would send them.
const test = adminTest({}, async (world) => {
  for (const { form, message } of forms) {
    const response = await world.request.post(formApiPath(form), {
      data: { name: NAME, email: emailOf(form), ...(message ? { message: MESSAGE } : {}) },
    });
    expect(response.status(), await response.text()).toBe(200);
    expect((await response.json()).status).toBe('success');
  }
  return {};
});

test.describe.configure({ mode: 'serial' });

test("the owner's emails show the payloads as text", async ({ world }) => {
  for (const { form, message } of forms) {
    const mail = await world.sink.waitFor((m) => m.headers['reply-to'] === emailOf(form));
    expect(mail.html, form).not.toMatch(/<img src=x|<script|<a href="javascript/i);
    expect(mail.html, form).toContain('&lt;img src=x onerror=&quot;window.pwned=1&quot;&gt;');
    if (message) expect(mail.html, form).toContain('&lt;script&gt;window.pwned=2&lt;/script&gt;');
  }
});

test('the admin grid, the row form, the rich-text editor and the CSV keep them inert', async ({
  page,
  world,
}) => {
  await page.addInitScript(() => {
    (window as unknown as { pwned?: number }).pwned = 0;
  });
  await page.goto('/#/admin');
  for (const name of new Set(forms.map((f) => f.panel))) {
    const rows = bodyRows(panel(page, name));
    await expect(rows.getByRole('cell', { name: NAME, exact: true }).first()).toBeVisible();
  }
  const orders = panel(page, 'Form Submissions');
  await expect(orders.getByRole('cell', { name: MESSAGE, exact: true })).toHaveCount(2);

  // Notes written with the same intent are stored clean.
  const [first] = await bodyRows(orders).first().getByRole('cell').nth(1).allTextContents();
  const id = Number(first);
  const saved = await page.request.put(tableRowPath('form_submissions', id), {
    headers: { origin: world.origin },
    data: { name: NAME, email: emailOf('contact'), notes: NOTES },
  });
  expect(saved.status(), await saved.text()).toBe(200);
  const notes = String((await storedRow(page.request, 'form_submissions', id))?.notes);
  // SPEC.md §5: a source that is not http(s) or data becomes blank; the link loses its href.
  expect(notes).toBe(
    '<p>Note</p><img src="" /><a target="_blank" rel="noopener noreferrer">link</a>',
  );

  await page.reload();
  await orders.getByRole('button', { name: `Edit row ${id}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit Form Submissions' });
  await expect(dialog.getByRole('textbox', { name: 'Name', exact: true })).toHaveValue(NAME);
  await expect(dialog.getByRole('textbox', { name: 'Message', exact: true })).toHaveValue(MESSAGE);
  await expect(dialog.locator('.ql-editor')).toContainText('Note');
  await expect(dialog.locator('.ql-editor')).toContainText('link');
  await expect(
    dialog.locator(
      '.ql-editor :is([onerror], [onload], script, svg, a[href^="javascript" i], img[src="x"])',
    ),
  ).toHaveCount(0);
  await page.keyboard.press('Escape');

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    orders.getByRole('button', { name: 'Export CSV' }).click(),
  ]);
  const csv = (await readFile((await download.path())!, 'utf8')).replace(/^\uFEFF/, '');
  const [header, ...rows] = Papa.parse<string[]>(csv.trim()).data;
  const column = (title: string) => header!.indexOf(title);
  const payloadRows = rows.filter((row) => row[column('Name')] === NAME);
  expect(payloadRows).toHaveLength(2);
  for (const row of payloadRows) expect(row[column('Message')]).toBe(`'${MESSAGE}`);
  expect(rows.find((row) => row[column('Notes')]?.startsWith('Note'))?.[column('Notes')]).toBe(
    'Note\nlink',
  );

  await page.waitForTimeout(300);
  expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBe(0);
});
