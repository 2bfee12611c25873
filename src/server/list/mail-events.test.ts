import { createHmac } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { eventually } from '../../../tests/support/eventually';
import { startMailApiServer, type MailApiServer } from '../../../tests/support/mail-api-server';
import { buildTestApp } from '../../../tests/support/test-app';
import { testConfig } from '../../../tests/support/test-config';
import { describeEachDatabase, type TestDatabase } from '../../../tests/support/test-database';

const PUBLIC_URL = 'https://shop.example.com';
const SECRET = 'provider-webhook-secret-0123456789';
let counter = 0;
const freshEmail = (label: string) => `${label}-${Date.now()}-${++counter}@example.com`;

type RunBody = {
  inputs: { receivers: string; title: string; body_html: string; headers?: Record<string, string> };
};

const sign = (body: string, secret = SECRET) =>
  'sha256=' + createHmac('sha256', secret).update(body).digest('hex');

async function listening(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

describeEachDatabase('the mail provider webhook (HTTP mail API)', (use) => {
  let api: MailApiServer;
  let app: FastifyInstance;
  let base: string;
  let database: TestDatabase;

  const config = (extra: Record<string, string> = {}) =>
    testConfig({
      MAIL_API_URL: 'http://127.0.0.1:9/',
      MAIL_API_KEY: 'test-key',
      MAIL_MODEL: 'send-email',
      MAIL_PROJECT_ID: 'project-7',
      PUBLIC_URL,
      MAIL_FROM: 'Soul Reset <hello@soulreset.test>',
      FORM_RATE_LIMIT: '10000',
      MAIL_TIMEOUT_MS: '2000',
      MAIL_RETRY_DELAYS: '0.2,0.2',
      ...extra,
    });

  beforeAll(async () => {
    database = use();
    api = await startMailApiServer();
    app = await buildTestApp(database, {
      config: await config({ MAIL_API_URL: `${api.url}/`, MAIL_WEBHOOK_SECRET: SECRET }),
    });
    base = await listening(app);
  });
  afterAll(async () => {
    await app?.close();
    await api?.close();
  });

  const sent = (email: string, title: string) =>
    eventually(async () => {
      const found = api.requests
        .map((request) => request.body as RunBody)
        .filter((body) => body.inputs.receivers === email && body.inputs.title === title);
      return found.length > 0 ? found.at(-1) : undefined;
    });
  const subscriber = (email: string) =>
    database.db
      .selectFrom('list_subscribers')
      .select(['id', 'status'])
      .where('email', '=', email)
      .executeTakeFirst();
  const eventKinds = async (email: string) =>
    (
      await database.db
        .selectFrom('list_consent_events')
        .innerJoin('list_subscribers', 'list_subscribers.id', 'list_consent_events.subscriber_id')
        .select(['list_consent_events.kind', 'list_consent_events.source'])
        .where('list_subscribers.email', '=', email)
        .orderBy('list_consent_events.id')
        .execute()
    ).map((event) => `${event.kind} (${event.source})`);

  /** A confirmed subscriber whose welcome email went through the mail API. */
  async function confirmed(email: string) {
    const guide = await fetch(`${base}/api/forms/free-guide`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Ada', email, listConsent: true }),
    });
    expect(guide.status).toBe(200);
    const confirmation = await sent(email, 'Please confirm your subscription');
    const path = new RegExp(`${PUBLIC_URL}(/list/confirm/[A-Za-z0-9_-]+)`).exec(
      confirmation.inputs.body_html,
    )![1]!;
    expect((await fetch(`${base}${path}`, { method: 'POST' })).status).toBe(200);
    return sent(email, 'Welcome! Here is your free guide again');
  }

  const post = (body: string, signature?: string) =>
    fetch(`${base}/api/mail/events`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(signature === undefined ? {} : { 'x-mail-signature': signature }),
      },
      body,
    });

  it('carries a list email’s List-Unsubscribe headers through the mail API', async () => {
    const email = freshEmail('headers');
    const welcome = await confirmed(email);
    const unsubscribe = /\/list\/unsubscribe\/[A-Za-z0-9_-]+/.exec(welcome.inputs.body_html)![0];
    expect(welcome.inputs.headers).toEqual({
      'List-Unsubscribe': `<${PUBLIC_URL}${unsubscribe}>, <mailto:hello@soulreset.test?subject=unsubscribe>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    });
    // Mail that is not list mail carries no such headers.
    const confirmation = await sent(email, 'Please confirm your subscription');
    expect(confirmation.inputs.headers).toBeUndefined();
  });

  it('refuses an unsigned, wrongly signed or altered event, changing nothing', async () => {
    const email = freshEmail('forged');
    await confirmed(email);
    const body = JSON.stringify({ type: 'complaint', recipient: email });
    const answers = [
      await post(body),
      await post(body, sign(body, 'another-secret-of-some-length')),
      await post(body.replace('complaint', 'bounce'), sign(body)),
      await post(body, 'sha256=zz'),
    ];
    for (const answer of answers) {
      expect(answer.status).toBe(401);
      expect(await answer.json()).toEqual({
        error: 'Unauthorized',
        message: 'The event signature could not be verified.',
      });
    }
    const notJson = 'not json';
    expect((await post(notJson, sign(notJson))).status).toBe(400);
    const unknown = JSON.stringify({ type: 'delivered', recipient: email });
    const refused = await post(unknown, sign(unknown));
    expect(refused.status).toBe(400);
    expect((await refused.json()).error).toBe('Bad Request');
    expect((await subscriber(email))?.status).toBe('confirmed');
  });

  it('marks a permanent bounce bounced and a complaint complained; receipts still go', async () => {
    const bounced = freshEmail('hard-bounce');
    const complaining = freshEmail('complaint');
    const soft = freshEmail('soft-bounce');
    await Promise.all([confirmed(bounced), confirmed(complaining), confirmed(soft)]);

    const body = JSON.stringify({
      events: [
        { type: 'bounce', bounceType: 'permanent', recipient: bounced.toUpperCase() },
        { type: 'complaint', recipient: complaining },
        { type: 'bounce', bounceType: 'transient', recipient: soft },
        { type: 'complaint', recipient: freshEmail('not-on-the-list') },
      ],
    });
    const answer = await post(body, sign(body));
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ received: 4 });
    expect((await subscriber(bounced))?.status).toBe('bounced');
    expect((await subscriber(complaining))?.status).toBe('complained');
    expect((await subscriber(soft))?.status).toBe('confirmed');
    expect(await eventKinds(bounced)).toEqual([
      'asked (free-guide form)',
      'confirmed (confirmation link)',
      'bounced (mail provider webhook)',
    ]);
    expect((await eventKinds(complaining)).at(-1)).toBe('complained (mail provider webhook)');

    // Replayed: nothing more is recorded.
    expect((await post(body, sign(body))).status).toBe(200);
    expect(await eventKinds(bounced)).toHaveLength(3);

    // A receipt (not list mail) to the bounced address is still sent.
    await database.db
      .insertInto('mail_deliveries')
      .values({
        source_table: 'orders',
        source_id: 1,
        recipient: bounced,
        subject: 'Your download link',
        html: '<p>link</p>',
        text: 'link',
      })
      .execute();
    app.deliveryWorker.wake();
    expect((await sent(bounced, 'Your download link')).inputs.receivers).toBe(bounced);
  });

  it('is not served without MAIL_WEBHOOK_SECRET', async () => {
    const plain = await buildTestApp(database, { config: await config() });
    try {
      const url = await listening(plain);
      const body = JSON.stringify({ type: 'complaint', recipient: 'a@example.com' });
      const answer = await fetch(`${url}/api/mail/events`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-mail-signature': sign(body) },
        body,
      });
      expect(answer.status).toBe(404);
    } finally {
      await plain.close();
    }
  });
});
