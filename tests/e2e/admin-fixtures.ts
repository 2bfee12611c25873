import type { APIRequestContext, Locator, Page, PlaywrightWorkerArgs } from '@playwright/test';
import { tableRowsPath } from '../../src/shared/admin/table-api';
import type { TableRow } from '../../src/shared/admin/table-config';
import { authApi } from '../../src/shared/auth';
import { freePort } from '../support/free-port';
import { codeInMail } from '../support/sign-in';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink';
import { expect, startServer, test as base, type ServerEnv, type StartedServer } from './fixtures';

export const ADMIN = 'owner@example.com';

export type AdminWorld = {
  sink: SmtpSink;
  server: StartedServer;
  /** PUBLIC_URL: writes must carry it as their Origin. */
  origin: string;
  /** Signed in as the owner (codes are throttled per address, so once per file). */
  request: APIRequestContext;
};

/**
 * A test whose browser contexts are signed in as the owner, on a server of the file's own
 * (mail over SMTP to a sink). `env` may be made when the server starts (a local service's
 * address). `setUp` runs once with the signed-in API context, e.g. to seed.
 */
export function adminTest<Extra extends object>(
  env: ServerEnv | (() => Promise<ServerEnv>),
  setUp: (world: AdminWorld) => Promise<Extra>,
) {
  return base.extend<object, { world: AdminWorld & Extra }>({
    world: [
      async ({ playwright }: PlaywrightWorkerArgs, use) => {
        const sink = await startSmtpSink();
        const port = await freePort();
        const origin = `http://127.0.0.1:${port}`;
        const server = await startServer({
          PORT: String(port),
          PUBLIC_URL: origin,
          SMTP_URL: sink.url,
          ADMIN_EMAILS: ADMIN,
          ...(typeof env === 'function' ? await env() : env),
        });
        const request = await playwright.request.newContext({ baseURL: server.url });
        await signIn(request, sink, origin);
        const world = { sink, server, origin, request };
        await use({ ...world, ...(await setUp(world)) });
        await request.dispose();
        expect(await server.stop()).toBe(0);
        await sink.close();
      },
      { scope: 'worker', timeout: 90_000 },
    ],
    baseURL: async ({ world }, use) => {
      await use(world.server.url);
    },
    storageState: async ({ world }, use) => {
      await use(await world.request.storageState());
    },
  });
}

/** Signs the request context in as the owner (the same calls the login page makes). */
async function signIn(request: APIRequestContext, sink: SmtpSink, origin: string) {
  const headers = { origin };
  const sent = await request.post(authApi.sendCode, {
    headers,
    data: { email: ADMIN, type: 'sign-in' },
  });
  expect(sent.status()).toBe(200);
  const mail = await sink.waitFor((m) => m.envelopeTo.includes(ADMIN));
  const otp = codeInMail(mail.text)!;
  const signedIn = await request.post(authApi.signIn, { headers, data: { email: ADMIN, otp } });
  expect(signedIn.status()).toBe(200);
}

export async function createRow(world: AdminWorld, table: string, values: object) {
  const response = await world.request.post(tableRowsPath(table), {
    headers: { origin: world.origin },
    data: values,
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { row: TableRow }).row;
}

/** The stored row with `id`, read through the admin API, or undefined. */
export async function storedRow(
  request: APIRequestContext,
  table: string,
  id: number,
): Promise<TableRow | undefined> {
  for (let page = 0; ; page += 1) {
    const response = await request.get(`${tableRowsPath(table)}?page=${page}`);
    const { rows } = (await response.json()) as { rows: TableRow[] };
    if (rows.length === 0) return undefined;
    const row = rows.find((r) => r.id === id);
    if (row) return row;
  }
}

/** One table's panel on the admin page. */
export function panel(page: Page, name: string): Locator {
  return page.getByRole('region', { name, exact: true });
}

/** The grid's body rows (the header row has no cells). */
export function bodyRows(panel: Locator): Locator {
  return panel.getByRole('row').filter({ has: panel.page().getByRole('cell') });
}
