/**
 * npx tsx scripts/readme-screenshots.ts
 *
 * Takes the README's two pictures from the real built site: the home page, and the admin with
 * a few visitors' requests in it. The built server runs on a free port with fresh data and
 * mail to a local sink; Debian's Chromium takes the screenshots; sharp shrinks them to
 * docs/images/home.png and docs/images/admin.png.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import sharp from 'sharp';
import { startAdminBenchServer } from '../bench/lib/admin-bench-server';
import { postJson } from '../bench/lib/sign-in';
import { ensureBuild } from './ensure-build.mjs';
import { chromiumFlags, chromiumPath } from './chromium.mjs';
import { makeTempDir } from '../tests/support/temp-dir';

const root = fileURLToPath(new URL('..', import.meta.url));
const VIEWPORT = { width: 1280, height: 800 };
/** Wide enough to read on GitHub beside each other, small enough to keep the repository light. */
const WIDTH = 960;

const VISITORS = [
  ['Maya Thornton', 'maya.thornton@example.com', 'Is the bundle a one-time payment?'],
  ['Daniel Okafor', 'daniel.okafor@example.com', 'Can I use the journal pages on a tablet?'],
  ['Lena Fischer', 'lena.fischer@example.com', 'Does the 30-day plan suit complete beginners?'],
  ['Priya Raman', 'priya.raman@example.com', 'I would love a printed copy of the workbook.'],
  ['Tom Becker', 'tom.becker@example.com', 'How long are the guided meditations?'],
];

await ensureBuild(root);
await mkdir(path.join(root, 'docs/images'), { recursive: true });
const dataDir = await makeTempDir('soul-reset-screenshots-');
const { server, cookie, close } = await startAdminBenchServer(root, dataDir, undefined, {
  FORM_RATE_LIMIT: '1000',
});
const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumFlags });
try {
  for (const [index, [name, email, message]] of VISITORS.entries()) {
    await postJson(server.url, `/api/forms/${index % 2 ? 'contact' : 'order'}`, {
      name,
      email,
      message,
    });
  }
  const [cookieName, cookieValue] = cookie.split('=') as [string, string];
  const context = await browser.newContext({ viewport: VIEWPORT, deviceScaleFactor: 1 });
  await context.addCookies([{ name: cookieName, value: cookieValue, url: server.url }]);
  const page = await context.newPage();

  const shoot = async (file: string) => {
    const png = await page.screenshot();
    await sharp(png)
      .resize({ width: WIDTH })
      .png({ palette: true, quality: 90, compressionLevel: 9 })
      .toFile(path.join(root, 'docs/images', file));
    console.log(`Wrote docs/images/${file}`);
  };

  await page.goto(`${server.url}/`);
  await page.getByRole('heading', { level: 1 }).waitFor();
  await page.evaluate(() => document.fonts.ready);
  await shoot('home.png');

  await page.goto(`${server.url}/#/admin`);
  await page.getByRole('cell', { name: 'Maya Thornton' }).waitFor();
  await shoot('admin.png');
  await context.close();
} finally {
  await browser.close();
  await close();
}
