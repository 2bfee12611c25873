import type { FastifyInstance } from 'fastify';
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import type { SessionStatus } from '../../src/shared/orders/order-api';
import { eventually } from './eventually';
import { freshIp } from './sign-in';
import { startSmtpSink, type SinkMail, type SmtpSink } from './smtp-sink';
import {
  checkoutSession,
  signedEvent,
  stripeEvent,
  TEST_WEBHOOK_SECRET,
  type TestSession,
} from './stripe-events';
import { startStripeApiServer, type StripeApiServer } from './stripe-api-server';
import { buildTestApp } from './test-app';
import { testConfig } from './test-config';
import type { TestDatabase } from './test-database';

export const OWNER = 'owner@example.com';
export const bundleBytes = Buffer.from(`%PDF-1.4\nthe bundle ${'x'.repeat(5000)}\n%%EOF\n`);

/** A product file with a space in its name, holding bundleBytes. */
export async function productFile(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'soul-reset-bundle-'));
  const file = path.join(dir, 'Soul Reset Bundle.pdf');
  await writeFile(file, bundleBytes);
  return file;
}

/** The download link in a buyer's email, as a path. */
export function linkIn(mail: SinkMail): string {
  const match = /https?:\/\/[^\s"<>]+\/download\/([A-Za-z0-9_-]{43})/.exec(mail.text);
  if (!match) throw new Error(`No download link in: ${mail.text}`);
  return `/download/${match[1]}`;
}

/**
 * The app with verified purchases on (a local Stripe API, an SMTP sink, DOWNLOAD_LIMIT 3),
 * emptied of orders, events and emails before each test, with helpers to drive it.
 */
export function useOrdersApp(use: () => TestDatabase) {
  const context = {} as { app: FastifyInstance; sink: SmtpSink; stripeApi: StripeApiServer };

  /** Waits until the worker has nothing left to send, so a missing email is really missing. */
  const settled = () =>
    eventually(async () => {
      const pending = await use()
        .db.selectFrom('mail_deliveries')
        .select('id')
        .where('status', '=', 'pending')
        .execute();
      return pending.length === 0 ? true : undefined;
    });

  beforeAll(async () => {
    context.sink = await startSmtpSink();
    context.stripeApi = await startStripeApiServer();
    context.app = await buildTestApp(use(), {
      config: await testConfig({
        SMTP_URL: context.sink.url,
        OWNER_EMAIL: OWNER,
        MAIL_RETRY_DELAYS: '3600',
        STRIPE_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
        STRIPE_SECRET_KEY: 'sk_test_local',
        STRIPE_API_URL: context.stripeApi.url,
        BUNDLE_FILE: await productFile(),
        DOWNLOAD_LIMIT: '3',
      }),
    });
  }, 60_000);
  afterAll(async () => {
    await context.app?.close();
    await context.stripeApi?.close();
    await context.sink?.close();
  });
  beforeEach(async () => {
    const { db } = use();
    // The last test's emails are sent first, so none arrives during this one.
    await settled();
    await db.deleteFrom('download_links').execute();
    await db.deleteFrom('orders').execute();
    await db.deleteFrom('payment_events').execute();
    await db.deleteFrom('mail_deliveries').execute();
    context.sink.messages.length = 0;
    context.stripeApi.sessions.clear();
    context.stripeApi.requests.length = 0;
  });

  async function deliver(event: unknown, options?: Parameters<typeof signedEvent>[1]) {
    const { payload, headers } = signedEvent(event, options);
    return context.app.inject({ method: 'POST', url: '/api/webhooks/stripe', payload, headers });
  }

  return {
    get app() {
      return context.app;
    },
    get sink() {
      return context.sink;
    },
    get stripeApi() {
      return context.stripeApi;
    },
    deliver,
    /** Delivers checkout.session.completed for a session (a paid $27 one unless given). */
    async pay(session: TestSession = checkoutSession()) {
      const response = await deliver(stripeEvent('checkout.session.completed', session));
      expect(response.statusCode).toBe(200);
      return session;
    },
    orders: () => use().db.selectFrom('orders').selectAll().orderBy('id').execute(),
    mailsTo: (address: string) =>
      context.sink.messages.filter((mail) => mail.envelopeTo.includes(address)),
    receiptFor: (address: string) =>
      context.sink.waitFor(
        (mail) => mail.envelopeTo.includes(address) && /download link/i.test(mail.subject),
      ),
    settled,
    status: async (sessionId: string) =>
      (await context.app.inject(`/api/orders/session/${sessionId}`)).json() as SessionStatus,
    download: (url: string) => context.app.inject({ method: 'GET', url, remoteAddress: freshIp() }),
  };
}
