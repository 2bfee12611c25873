import { adminNav } from '../../src/shared/admin-nav';
import type { Page } from '@playwright/test';
import { readFile } from 'node:fs/promises';
import type { TableRow } from '../../src/shared/admin/table-config';
import { adminTest, bodyRows, createRow, panel as tablePanel } from './admin-fixtures';
import { expect } from './fixtures';
import { expectNoViolations } from './support';

const TABLE = 'refund_inquiries';
const PANEL = 'Refund Inquiries';

// 25 refund inquiries (oldest first); every fifth was never emailed.
const test = adminTest({}, async (world) => {
  const seeded: TableRow[] = [];
  for (let i = 1; i <= 25; i += 1) {
    seeded.push(
      await createRow(world, TABLE, {
        name: `Person ${i}`,
        email: `person${i}@example.com`,
        message: i === 7 ? 'Where is my refund, says seven' : `Message ${i}`,
        email_sent: i % 5 !== 0,
      }),
    );
  }
  return { seeded };
});

test.describe.configure({ mode: 'serial' });

const panel = (page: Page) => tablePanel(page, PANEL);
const searchBox = (page: Page) =>
  panel(page).getByRole('searchbox', { name: 'Search name, email, message' });
const names = (page: Page) => bodyRows(panel(page)).locator('td:nth-child(3)');

test('a search is kept in the address across a reload and the back button', async ({ page }) => {
  await page.goto('/#/admin');
  await expect(bodyRows(panel(page))).toHaveCount(10);
  await searchBox(page).fill('SEVEN');
  await expect(names(page)).toHaveText(['Person 7']);
  await expect(panel(page).getByText('1 matching row')).toBeVisible();
  expect(decodeURIComponent(page.url())).toContain(`${TABLE}.q=SEVEN`);

  await page.reload();
  await expect(searchBox(page)).toHaveValue('SEVEN');
  await expect(names(page)).toHaveText(['Person 7']);

  await searchBox(page).fill('person2');
  await expect(panel(page).getByText('7 matching rows')).toBeVisible();
  await page.goBack();
  await expect(searchBox(page)).toHaveValue('SEVEN');
  await expect(names(page)).toHaveText(['Person 7']);
  await panel(page).getByRole('button', { name: 'Clear search and filters' }).click();
  await expect(bodyRows(panel(page))).toHaveCount(10);
});

test('sorts by a clicked header and filters rows never emailed', async ({ page }) => {
  await page.goto('/#/admin');
  const header = panel(page).getByRole('columnheader', { name: /^Name/ });
  await header.getByRole('button').click();
  await expect(header).toHaveAttribute('aria-sort', 'ascending');
  await expect(names(page).first()).toHaveText('Person 1');
  await expect(names(page).nth(1)).toHaveText('Person 10');
  await header.getByRole('button').click();
  await expect(header).toHaveAttribute('aria-sort', 'descending');
  await expect(names(page).first()).toHaveText('Person 9');

  await panel(page).getByRole('checkbox', { name: 'Email not sent' }).check();
  await expect(panel(page).getByText('5 matching rows')).toBeVisible();
  await expect(names(page)).toHaveText([
    'Person 5',
    'Person 25',
    'Person 20',
    'Person 15',
    'Person 10',
  ]);
  await expect(panel(page).getByText('Page 1 of 1 (5 items)')).toBeVisible();
});

test('Export all downloads every matching row, beyond the page on screen', async ({ page }) => {
  await page.goto(`/#/admin?${TABLE}.q=person1`);
  await expect(panel(page).getByText('11 matching rows')).toBeVisible();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    panel(page).getByRole('link', { name: 'Export all' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('Refund_Inquiries.csv');
  const lines = (await readFile((await download.path())!, 'utf8')).split('\r\n');
  expect(lines[0]).toBe('Name,Email,Message,Email Sent,Email Sent At,Notes,Created At,Updated At');
  // Person 1 and Persons 10 to 19, newest first: eleven rows though the page shows ten.
  expect(lines).toHaveLength(12);
  expect(lines[1]).toMatch(/^Person 19,person19@example.com,Message 19,Yes,/);
  expect(lines[11]).toMatch(/^Person 1,person1@example.com,Message 1,Yes,/);
});

test('bulk deletes ticked rows after one confirm, then restores them from Activity', async ({
  page,
  world,
}) => {
  await page.goto('/#/admin');
  const [first, second] = [world.seeded[24]!, world.seeded[23]!];
  await panel(page)
    .getByRole('checkbox', { name: `Select row ${first.id}` })
    .check();
  await panel(page)
    .getByRole('checkbox', { name: `Select row ${second.id}` })
    .check();
  await expect(panel(page).getByText('2 rows selected')).toBeVisible();
  const messages: string[] = [];
  page.once('dialog', (dialog) => {
    messages.push(dialog.message());
    void dialog.accept();
  });
  await panel(page).getByRole('button', { name: 'Delete selected' }).click();
  await expect.poll(() => messages).toEqual(['Delete 2 rows? You can restore them from Activity.']);
  await expect(panel(page).getByText(/\(23 items\)/)).toBeVisible();
  await expect(names(page).first()).toHaveText('Person 23');

  await page
    .getByRole('navigation', { name: 'Admin pages' })
    .getByRole('link', { name: 'Activity' })
    .click();
  await expect(page.getByRole('heading', { level: 2, name: 'Activity' })).toBeVisible();
  const entry = page.getByRole('main').getByRole('listitem').first();
  await expect(entry).toContainText('Bulk deleted');
  await expect(entry).toContainText(`2 rows ${second.id}, ${first.id}`);
  await expect(entry).toContainText('owner@example.com');
  await entry.getByRole('button', { name: /^Restore/ }).click();
  await expect(page.getByRole('status')).toHaveText(`Restored 2 rows of ${TABLE}.`);
  await expect(page.getByRole('main').getByRole('listitem').first()).toContainText('Restored');

  await page
    .getByRole('navigation', { name: 'Admin pages' })
    .getByRole('link', { name: 'Tables' })
    .click();
  await expect(panel(page).getByText(/\(25 items\)/)).toBeVisible();
  await expect(names(page).first()).toHaveText('Person 25');
  await expect(bodyRows(panel(page)).first().locator('td').nth(1)).toHaveText(String(first.id));
});

test('People: finds every record of an address, downloads it as JSON, and erases it', async ({
  page,
}) => {
  await page.goto('/#/admin/people');
  await page.getByLabel('Email address').fill('PERSON3@example.com');
  await page.getByRole('button', { name: 'Find records' }).click();
  await expect(page.getByText(/^\d+ records? of/)).toContainText('PERSON3@example.com');
  await expect(page.getByRole('heading', { name: /refund_inquiries/ })).toBeVisible();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download JSON' }).click(),
  ]);
  const file = JSON.parse(await readFile((await download.path())!, 'utf8')) as {
    tables: { table: string; rows: { email?: string }[] }[];
  };
  const refunds = file.tables.find((t) => t.table === TABLE)!;
  expect(refunds.rows.map((row) => row.email)).toEqual(['person3@example.com']);

  const erase = page.getByRole('button', { name: 'Erase everywhere' });
  await expect(erase).toBeDisabled();
  await page.getByLabel('Type PERSON3@example.com to confirm').fill('person3@example.com');
  await erase.click();
  await expect(page.getByText(/^Erased PERSON3@example.com:/)).toContainText('refund_inquiries');
  await expect(page.getByText('No records of PERSON3@example.com.')).toBeVisible();

  await page.goto(`/#/admin?${TABLE}.q=person3%40`);
  await expect(panel(page).getByText('No rows match this search.')).toBeVisible();
});

for (const viewport of [
  { name: 'mobile', width: 375, height: 812 },
  { name: 'desktop', width: 1280, height: 800 },
]) {
  test(`at ${viewport.name} width, the filters, Activity and People pass axe-core`, async ({
    page,
  }) => {
    // Three pages, each scanned by axe (about 15 s a scan at mobile width here).
    test.setTimeout(150_000);
    await page.setViewportSize(viewport);
    await page.goto(`/#/admin?${TABLE}.q=person&${TABLE}.sort=name&${TABLE}.order=asc`);
    await expect(bodyRows(panel(page))).toHaveCount(10);
    await panel(page).getByRole('checkbox', { name: 'Select every row on this page' }).check();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(viewport.width);
    // Every admin page's link shows at once (on a phone in two rows), none scrolled or pushed
    // out of sight.
    const tabs = page.getByRole('navigation', { name: 'Admin pages' }).getByRole('list');
    await expect(tabs.getByRole('link')).toHaveCount(adminNav.length);
    expect(await tabs.evaluate((list) => list.scrollWidth - list.clientWidth)).toBe(0);
    const boxes = await tabs
      .getByRole('link')
      .evaluateAll((links) =>
        links.map((link) => link.getBoundingClientRect().toJSON() as DOMRect),
      );
    for (const box of boxes) {
      expect(box.left).toBeGreaterThanOrEqual(0);
      expect(box.right).toBeLessThanOrEqual(viewport.width);
    }
    await expectNoViolations(page);
    await page.goto('/#/admin/activity');
    await page.getByRole('main').getByRole('listitem').first().locator('summary').click();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(viewport.width);
    await expectNoViolations(page);
    await page.goto('/#/admin/people');
    await page.getByLabel('Email address').fill('person4@example.com');
    await page.getByRole('button', { name: 'Find records' }).click();
    await expect(page.getByRole('button', { name: 'Erase everywhere' })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(viewport.width);
    await expectNoViolations(page);
  });
}

// Pictures of every state of the admin tools at both widths, for a person to look at:
// SHOTS_DIR=/tmp/shots npm run test:e2e -- admin-tools
test('screenshots of the admin tools in every state', async ({ page, consoleErrors }, testInfo) => {
  // Every run walks the states and checks them; the pictures land in the test's output
  // folder unless SHOTS_DIR names another.
  const dir = process.env.SHOTS_DIR ?? testInfo.outputPath('shots');
  test.setTimeout(150_000);
  // The page, or only the Refund Inquiries panel (the tables page is six panels long), at
  // each width; every page shot shows the header with the admin navigation.
  // The error states log their failed request; nothing else may.
  const expectLogged = (status: number) => {
    expect(consoleErrors.length).toBeGreaterThan(0);
    for (const error of consoleErrors)
      expect(error).toMatch(new RegExp(`status of ${status}|Failed to`));
    consoleErrors.length = 0;
  };
  const shoot = async (name: string, only?: 'panel') => {
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: width === 375 ? 812 : 800 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(width);
      const path = `${dir}/${name}-${width}.png`;
      if (only) await panel(page).screenshot({ path });
      else await page.screenshot({ path, fullPage: true });
    }
  };
  await page.goto('/#/admin');
  await expect(bodyRows(panel(page))).toHaveCount(10);
  await page.setViewportSize({ width: 375, height: 812 });
  await page.getByRole('banner').screenshot({ path: `${dir}/nav-375.png` });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.getByRole('banner').screenshot({ path: `${dir}/nav-1280.png` });
  await shoot('tables-plain', 'panel');
  await page.goto(`/#/admin?${TABLE}.q=person1&${TABLE}.sort=name&${TABLE}.order=asc`);
  await expect(panel(page).getByText('11 matching rows')).toBeVisible();
  await panel(page).getByRole('checkbox', { name: 'Select every row on this page' }).check();
  await shoot('tables-search-selected', 'panel');
  // Reached from the keyboard, so the focus ring shows.
  await panel(page).getByRole('link', { name: 'Export all' }).focus();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Shift+Tab');
  await expect(panel(page).getByRole('link', { name: 'Export all' })).toBeFocused();
  await shoot('tables-export-all-focused', 'panel');
  // The next page request waits, so the panel shows its loading state over the last rows.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/admin/tables/refund_inquiries/rows?*', async (route) => {
    await held;
    await route.continue();
  });
  await panel(page).getByRole('button', { name: 'Next page' }).click();
  await expect(panel(page).getByRole('status').filter({ hasText: 'Loading' })).toBeAttached();
  await shoot('tables-loading', 'panel');
  release();
  await expect(panel(page).getByText('Page 2 of 2 (11 items)')).toBeVisible();
  await expect(panel(page)).toHaveAttribute('aria-busy', 'false');
  await page.unrouteAll({ behavior: 'wait' });
  await page.goto(
    `/#/admin?${TABLE}.q=nobody-at-all&${TABLE}.filter=${encodeURIComponent('{"email_sent":false}')}`,
  );
  await expect(panel(page).getByText('No rows match this search.')).toBeVisible();
  await shoot('tables-search-empty', 'panel');
  await page.route('**/api/admin/tables/refund_inquiries/rows?*', (route) =>
    route.fulfill({
      status: 400,
      json: { error: 'Bad Request', message: 'Refund Inquiries has no column "x" to sort by.' },
    }),
  );
  await page.goto(`/#/admin?${TABLE}.sort=x`);
  await expect(panel(page).getByRole('alert')).toBeVisible();
  await shoot('tables-search-error', 'panel');
  expectLogged(400);
  await page.unrouteAll();

  await page.goto('/#/admin/activity');
  await expect(page.getByRole('main').getByRole('listitem').first()).toBeVisible();
  await page.getByRole('main').getByRole('listitem').first().locator('summary').click();
  await shoot('activity-filled');
  await page.route('**/api/admin/audit?*', (route) =>
    route.fulfill({ json: { rows: [], count: 0, page: 0, pageSize: 20 } }),
  );
  await page.reload();
  await expect(page.getByText('No admin changes yet.')).toBeVisible();
  await shoot('activity-empty');
  await page.unrouteAll();
  await page.route('**/api/admin/audit?*', (route) =>
    route.fulfill({
      status: 503,
      json: { error: 'Service Unavailable', message: 'The database is not reachable.' },
    }),
  );
  await page.reload();
  await expect(page.getByRole('alert')).toBeVisible();
  await shoot('activity-error');
  expectLogged(503);
  await page.unrouteAll();

  await page.goto('/#/admin/people');
  await shoot('people-start');
  await page.getByLabel('Email address').fill('person5@example.com');
  await page.getByRole('button', { name: 'Find records' }).click();
  await expect(page.getByRole('button', { name: 'Erase everywhere' })).toBeVisible();
  await page.getByLabel('Type person5@example.com to confirm').fill('person5@example.com');
  await shoot('people-found');
  await page.getByRole('button', { name: 'Erase everywhere' }).click();
  await expect(page.getByText(/^Erased person5@example.com:/)).toBeVisible();
  await shoot('people-erased');
  await page.getByLabel('Email address').fill('nobody@example.com');
  await page.getByRole('button', { name: 'Find records' }).click();
  await expect(page.getByText('No records of nobody@example.com.')).toBeVisible();
  await shoot('people-none');
  await page.getByLabel('Email address').fill('a@b');
  await page.route('**/api/admin/people?*', (route) =>
    route.fulfill({
      status: 400,
      json: { error: 'Bad Request', message: 'Type one email address, like ann@example.com.' },
    }),
  );
  await page.getByRole('button', { name: 'Find records' }).click();
  await expect(page.getByRole('alert')).toBeVisible();
  await shoot('people-error');
  expectLogged(400);
});
