import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { fakeClientBuild } from '../../../tests/support/fake-client-build';
import { signIn } from '../../../tests/support/sign-in';
import { startSmtpSink, type SmtpSink } from '../../../tests/support/smtp-sink';
import { buildTestApp } from '../../../tests/support/test-app';
import { testConfig } from '../../../tests/support/test-config';
import { describeEachDatabase } from '../../../tests/support/test-database';
import { seedContent } from '../../shared/store/seed-content';
import { STORE_PREVIEW_PATH } from '../../shared/store/store-api';

const ADMIN = 'owner@example.com';
const VISITOR = 'visitor@example.com';

describeEachDatabase('POST /api/admin/store/preview', (use) => {
  let sink: SmtpSink;
  let app: FastifyInstance;
  let adminCookie: string;
  let visitorCookie: string;

  beforeAll(async () => {
    sink = await startSmtpSink();
    app = await buildTestApp(use(), {
      config: await testConfig({ SMTP_URL: sink.url, ADMIN_EMAILS: ADMIN }),
      clientDir: await fakeClientBuild(),
    });
    adminCookie = await signIn(app, sink, ADMIN);
    visitorCookie = await signIn(app, sink, VISITOR);
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await sink?.close();
  });

  const draft = () => {
    const content = seedContent();
    return {
      ...content,
      product: { ...content.product, checkoutUrl: 'https://pay.example.com/b/draft-7' },
    };
  };
  const preview = (cookie: string | undefined, payload: unknown, origin = app.config.publicUrl) =>
    app.inject({
      method: 'POST',
      url: STORE_PREVIEW_PATH,
      headers: { ...(cookie && { cookie }), origin },
      payload: payload as object,
    });

  it('renders the page from the draft sent, uncached, and publishes nothing', async () => {
    const response = await preview(adminCookie, { content: draft() });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.body).toContain('<a href="https://pay.example.com/b/draft-7">Buy</a>');
    expect(response.body).not.toContain('<script');

    const live = await app.inject('/');
    expect(live.body).not.toContain('draft-7');
  });

  it('names each bad field by its path', async () => {
    const content = draft();
    const response = await preview(adminCookie, {
      content: { ...content, product: { ...content.product, priceCents: 10, currency: 'usdd' } },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: 'Bad Request',
      message: 'Some fields need your attention.',
      fields: {
        'product.priceCents': 'The price must be at least 50 cents.',
        'product.currency': 'The currency must be a three-letter code such as usd.',
      },
    });
    expect((await preview(adminCookie, {})).json().fields).toEqual({
      '(document)': expect.any(String),
    });
  });

  it('answers 401 without a session, 403 to a visitor and to another origin', async () => {
    expect((await preview(undefined, { content: draft() })).statusCode).toBe(401);
    expect((await preview(visitorCookie, { content: draft() })).statusCode).toBe(403);
    const foreign = await preview(adminCookie, { content: draft() }, 'https://evil.example');
    expect(foreign.statusCode).toBe(403);
  });
});
