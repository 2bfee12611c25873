import { randomBytes } from 'node:crypto';
import type { ConsoleMessage, Locator, Page } from '@playwright/test';
import pg from 'pg';
import { withAdminClient } from '../support/postgres-admin';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink';
import { embeddedDatabaseUrl } from '../../src/server/db/embedded-postgres';
import { expect, makeDataDir, removeDir, test as base, type ServerEnv } from './fixtures';
import { suppressPopup } from './support';

export const OWNER_EMAIL = 'owner@soulreset.test';

/** Rows the server stored, read straight from its database. */
export type StoredRows = {
  /** What points the server at that database: DATABASE_URL, or DATA_DIR for its own server. */
  env: ServerEnv;
  query(text: string, values?: unknown[]): Promise<Record<string, unknown>[]>;
};

type WorkerFixtures = { smtpSink: SmtpSink; stored: StoredRows; formRateLimit: string };

/**
 * The forms' end-to-end world: an SMTP sink the server sends through (SMTP_URL), and a
 * database of the server's whose rows the test can read: a fresh PostgreSQL database when
 * TEST_DATABASE_URL is set, else the embedded PostgreSQL the server starts in its DATA_DIR
 * (read through its socket while the server runs).
 */
export const test = base.extend<{ analytics: string[] }, WorkerFixtures>({
  formRateLimit: ['1000', { scope: 'worker', option: true }],

  smtpSink: [
    // eslint-disable-next-line no-empty-pattern -- Playwright needs the destructuring
    async ({}, use) => {
      const sink = await startSmtpSink();
      await use(sink);
      await sink.close();
    },
    { scope: 'worker' },
  ],

  stored: [
    // eslint-disable-next-line no-empty-pattern -- Playwright needs the destructuring
    async ({}, use) => {
      const adminUrl = process.env.TEST_DATABASE_URL;
      if (!adminUrl) {
        const dataDir = await makeDataDir();
        const pool = new pg.Pool({ connectionString: embeddedDatabaseUrl(dataDir), max: 2 });
        // The server stops its PostgreSQL before this fixture ends, closing idle connections.
        pool.on('error', () => undefined);
        try {
          await use({
            env: { DATA_DIR: dataDir },
            query: async (text, values) => (await pool.query(text, values)).rows,
          });
        } finally {
          await pool.end();
          await removeDir(dataDir);
        }
        return;
      }
      const name = `soul_reset_e2e_${randomBytes(6).toString('hex')}`;
      await withAdminClient(adminUrl, (client) => client.query(`create database "${name}"`));
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      const pool = new pg.Pool({ connectionString: url.toString(), max: 2 });
      try {
        await use({
          env: { DATABASE_URL: url.toString() },
          query: async (text, values) => (await pool.query(text, values)).rows,
        });
      } finally {
        await pool.end();
        await withAdminClient(adminUrl, (client) =>
          client.query(`drop database if exists "${name}" with (force)`),
        );
      }
    },
    { scope: 'worker' },
  ],

  serverEnv: [
    async ({ smtpSink, stored, formRateLimit }, use) => {
      const env: ServerEnv = {
        SMTP_URL: smtpSink.url,
        OWNER_EMAIL,
        FORM_RATE_LIMIT: formRateLimit,
        MAIL_TIMEOUT_MS: '5000',
        ...stored.env,
      };
      await use(env);
    },
    { scope: 'worker' },
  ],

  /** The page's `[analytics] …` console lines, in order. */
  analytics: async ({ page }, use) => {
    const lines: string[] = [];
    page.on('console', (message: ConsoleMessage) => {
      if (message.text().startsWith('[analytics]')) lines.push(message.text());
    });
    await use(lines);
  },
});

let counter = 0;
/** A unique visitor address per test run and call. */
export function visitorEmail(label: string) {
  return `${label}-${Date.now().toString(36)}-${++counter}@example.com`;
}

export { expect };

/** Opens a route with the popup kept away and returns the form named `name`. */
export async function openForm(page: Page, hash: string, name: string): Promise<Locator> {
  await suppressPopup(page);
  await page.goto(`/${hash}`);
  const form = page.getByRole('form', { name });
  await expect(form).toBeVisible();
  return form;
}

/**
 * Waits until the delivery worker has recorded the owner's email of `email`'s row as sent: the
 * sink holds the message a moment before the worker, answered by the server, stores that.
 */
export async function recordedAsSent(stored: StoredRows, table: string, email: string) {
  await expect
    .poll(
      async () =>
        (await stored.query(`select email_sent from ${table} where email = $1`, [email]))[0]
          ?.email_sent,
    )
    .toBe(true);
}

/** Drops the browser's own log line for a response the test provoked on purpose. */
export function allowConsoleErrors(errors: string[], pattern: RegExp) {
  for (let index = errors.length - 1; index >= 0; index -= 1) {
    if (pattern.test(errors[index]!)) errors.splice(index, 1);
  }
}
