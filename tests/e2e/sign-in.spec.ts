import type { Page } from '@playwright/test';
import { freePort } from '../support/free-port';
import { codeInMail } from '../support/sign-in';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink';
import { expect, startServer, test as base, type StartedServer } from './fixtures';

const ADMIN = 'owner@example.com';
const VISITOR = 'visitor@example.com';

type AuthWorld = { sink: SmtpSink; server: StartedServer };

// One server for this file, its mail going over SMTP to a sink the test reads codes from.
// ADMIN_EMAILS names only the owner, so any other address is a signed-in non-admin.
const test = base.extend<object, { world: AuthWorld }>({
  world: [
    // eslint-disable-next-line no-empty-pattern -- Playwright requires the destructuring form
    async ({}, use) => {
      const sink = await startSmtpSink();
      const port = await freePort();
      const server = await startServer({
        PORT: String(port),
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        SMTP_URL: sink.url,
        ADMIN_EMAILS: ADMIN,
      });
      await use({ sink, server });
      expect(await server.stop()).toBe(0);
      await sink.close();
    },
    { scope: 'worker', timeout: 90_000 },
  ],
  baseURL: async ({ world }, use) => {
    await use(world.server.url);
  },
});

async function requestCode(page: Page, sink: SmtpSink, email: string): Promise<string> {
  const before = sink.messages.length;
  await page.getByRole('textbox', { name: 'Email', exact: true }).fill(email);
  await page.getByRole('button', { name: 'Send Verification Code' }).click();
  await expect(page.getByText(`A verification code has been sent to ${email}`)).toBeVisible();
  const mail = await sink.waitFor(
    (m) => sink.messages.indexOf(m) >= before && m.envelopeTo.includes(email),
  );
  const code = codeInMail(mail.text);
  expect(code, `a 6-digit code in:\n${mail.text}`).toBeDefined();
  return code!;
}

async function signIn(page: Page, sink: SmtpSink, email: string) {
  const code = await requestCode(page, sink, email);
  const input = page.getByPlaceholder('Enter 6-digit code');
  await expect(input).toHaveAttribute('maxlength', '6');
  await input.fill(code);
  await page.getByRole('button', { name: 'Verify and Sign In' }).click();
}

test('admin mode: texts, sign-in to /admin replacing history, HttpOnly cookie, logout', async ({
  page,
  world,
  context,
}) => {
  await page.goto('/#/');
  await page.goto('/#/admin/login');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Admin Access');
  await expect(page.getByText('Sign in to access the dashboard')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Home' })).toHaveCount(0);

  await signIn(page, world.sink, ADMIN);
  await expect(page).toHaveURL(/#\/admin$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Admin Dashboard');
  await expect(page.getByRole('banner')).toContainText(ADMIN);
  await expect(page.getByRole('main').getByRole('heading', { name: 'Tables' })).toBeVisible();
  await expect(page.getByRole('contentinfo')).toHaveText('Built with care for Soul Reset');

  const [cookie] = (await context.cookies()).filter((c) => c.name.endsWith('session_token'));
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', secure: false });
  expect(await page.evaluate(() => document.cookie)).not.toContain('session_token');

  // The login entry was replaced: going back skips it.
  await page.goBack();
  await expect(page).toHaveURL(/#\/$/);
  await page.goForward();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Admin Dashboard');

  // A reload reads the session from the server.
  await page.reload();
  await expect(page.getByRole('banner')).toContainText(ADMIN);

  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/#\/admin\/login$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Admin Access');
  const replay = await page.request.get('/api/admin/session', {
    headers: { cookie: `${cookie!.name}=${cookie!.value}` },
  });
  expect(replay.status()).toBe(401);
  await page.goBack();
  await expect(page).toHaveURL(/#\/$/);
  await page.goto('/#/admin');
  await expect(page).toHaveURL(/#\/admin\/login$/);
});

test('normal mode: texts, Home button, sign-in to / replacing history', async ({ page, world }) => {
  await page.goto('/#/contact-us');
  await page.goto('/#/login');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome Back');
  await expect(page.getByText('Sign in to continue')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Home' })).toBeVisible();

  await signIn(page, world.sink, ADMIN);
  await expect(page).toHaveURL(/#\/$/);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Soul Reset Bundle');
  await page.goBack();
  await expect(page).toHaveURL(/#\/contact-us$/);

  await page.goto('/#/login');
  await page.getByRole('link', { name: 'Home' }).click();
  await expect(page).toHaveURL(/#\/$/);
});

test('a signed-in non-admin sees "No access" with Logout, and no admin content', async ({
  page,
  world,
}) => {
  await page.goto('/#/admin/login');
  await signIn(page, world.sink, VISITOR);
  await expect(page).toHaveURL(/#\/admin$/);
  await expect(page.getByRole('heading', { name: 'No access' })).toBeVisible();
  await expect(page.getByRole('main')).toContainText(`${VISITOR} does not have access`);
  await expect(page.getByRole('heading', { name: 'Tables' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/#\/admin\/login$/);
});

test("a wrong code shows the auth service's message in red; 'Use a different email' starts over", async ({
  page,
  world,
  consoleErrors,
}) => {
  await page.goto('/#/admin/login');
  const code = await requestCode(page, world.sink, 'typo@example.com');
  await page.getByPlaceholder('Enter 6-digit code').fill(code === '000000' ? '111111' : '000000');
  await page.getByRole('button', { name: 'Verify and Sign In' }).click();
  const alert = page.getByRole('alert');
  await expect(alert).toHaveText('Invalid OTP');
  await expect(alert).toHaveCSS('color', 'oklch(0.505 0.213 27.518)'); // Tailwind red-700
  // Chromium reports the refused request itself on the console: that one is expected.
  expect(consoleErrors).toEqual([expect.stringContaining('status of 400')]);
  consoleErrors.length = 0;

  await page.getByRole('button', { name: 'Use a different email' }).click();
  await expect(page.getByRole('textbox', { name: 'Email', exact: true })).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect(page.getByText(/A verification code has been sent/)).toHaveCount(0);
});
