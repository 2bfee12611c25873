// Scheduled publishing in Admin → Store, in a real browser against the built server: the owner
// picks a time in their own zone, sees it named with that zone, and cancels it.
import type { Locator, Page } from '@playwright/test';
import { adminTest } from './admin-fixtures';
import { expect } from './fixtures';
import { expectNoViolations } from './support';

const test = adminTest({}, async () => ({}));
test.use({ timezoneId: 'America/New_York' });

// SHOTS_DIR=/tmp/shots node scripts/e2e.mjs tests/e2e/store-schedule.spec.ts
async function shoot(page: Page, dir: string, name: string, target: Locator) {
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: width === 375 ? 812 : 800 });
    await target.scrollIntoViewIfNeeded();
    await page.evaluate(
      () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
    );
    await page.screenshot({ path: `${dir}/${name}-${width}.png` });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(width);
  }
}

test('the owner schedules the draft in their zone and cancels it', async ({ page }, testInfo) => {
  test.setTimeout(60_000);
  const dir = process.env.SHOTS_DIR ?? testInfo.outputPath('shots');
  await page.goto('/#/admin/store');
  const section = page.getByRole('region', { name: 'Scheduled publish' });
  // 9:00 in New York, 20 days ahead (a schedule reaches at most 366 days ahead).
  const day = new Date(Date.now() + 20 * 86_400_000).toISOString().slice(0, 10);
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  await section.getByLabel('Publish at').fill(`${day}T09:00`);
  await section.getByRole('button', { name: 'Schedule', exact: true }).click();
  const time = section.locator('time');
  const shown = `${new Date(Date.UTC(year, month - 1, date)).toLocaleString('en-US', {
    month: 'short',
    timeZone: 'UTC',
  })} ${date}, ${year}, 9:00 AM`;
  await expect(time).toHaveText(new RegExp(`^${shown} E[SD]T$`));
  // Stored in UTC: 14:00 in winter (EST), 13:00 in summer (EDT).
  await expect(time).toHaveAttribute('datetime', new RegExp(`^${day}T1[34]:00:00.000Z$`));
  await expectNoViolations(page, { frames: false });
  await shoot(page, dir, 'admin-schedule', section);

  // Still there after a reload, then cancelled.
  await page.reload();
  await expect(section.locator('time')).toHaveText(new RegExp(`^${shown} E[SD]T$`));
  await section.getByRole('button', { name: 'Cancel schedule' }).click();
  await expect(section.getByLabel('Publish at')).toBeVisible();
  await expect(section.locator('time')).toHaveCount(0);
  await shoot(page, dir, 'admin-schedule-empty', section);
});
