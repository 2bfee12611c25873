// Admin → Subscribers in a real browser: an import checked then made, the list with each
// consent history, at phone and desktop widths, without axe-core violations.
import { ADMIN_SUBSCRIBERS_PATH } from '../../src/shared/list/list-api';
import { adminTest } from './admin-fixtures';
import { expect } from './fixtures';
import { expectNoViolations } from './support';

const SHOTS = process.env.SHOTS_DIR ?? 'test-results/shots/list';

const test = adminTest({}, async (world) => {
  // A few subscribers through the import API itself (pending, each sent a confirmation).
  const csv = ['email,name', 'ada@example.com,Ada', 'bo@example.com,Bo', 'cy@example.com,'].join(
    '\n',
  );
  const imported = await world.request.post(`${ADMIN_SUBSCRIBERS_PATH}/import`, {
    headers: { origin: world.origin, 'content-type': 'text/csv' },
    data: csv,
  });
  expect(imported.status()).toBe(200);
  return {};
});

for (const viewport of [
  { name: '375', width: 375, height: 812 },
  { name: '1280', width: 1280, height: 800 },
]) {
  test(`at ${viewport.name} px: counts, consent history, import check, no axe violations`, async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    await page.goto('/#/admin/subscribers');
    await expect(page.getByRole('heading', { name: 'Subscribers' })).toBeVisible();
    await expect(page.getByText('ada@example.com')).toBeVisible();
    await expect(page.getByText(/^imported$/).first()).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(viewport.width);
    await page.screenshot({
      path: `${SHOTS}/admin-subscribers-${viewport.name}.png`,
      fullPage: true,
    });

    await page.getByText('Import a list (CSV)').click();
    await page.getByLabel('CSV file').setInputFiles({
      name: 'list.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('email\nada@example.com\nnew@example.com\nnot-an-address\n'),
    });
    await page.getByRole('button', { name: 'Check the file' }).click();
    await expect(page.getByText(/^Checked 3 rows: 1 new, 1 already known/)).toBeVisible();
    await page.screenshot({
      path: `${SHOTS}/admin-subscribers-import-${viewport.name}.png`,
      fullPage: true,
    });
    await expectNoViolations(page);
  });
}
