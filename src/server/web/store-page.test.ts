import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { fakeClientBuild } from '../../../tests/support/fake-client-build';
import { signIn } from '../../../tests/support/sign-in';
import { startSmtpSink, type SmtpSink } from '../../../tests/support/smtp-sink';
import { buildTestApp } from '../../../tests/support/test-app';
import { testConfig } from '../../../tests/support/test-config';
import { describeEachDatabase } from '../../../tests/support/test-database';
import { STORE_PATH, STORE_PUBLISH_PATH, type StoreState } from '../../shared/store/store-api';

const ADMIN = 'owner@example.com';

describeEachDatabase('the page of a published version', (use) => {
  let sink: SmtpSink;
  let first: FastifyInstance;
  let second: FastifyInstance;
  let cookie: string;

  beforeAll(async () => {
    sink = await startSmtpSink();
    const config = await testConfig({ SMTP_URL: sink.url, ADMIN_EMAILS: ADMIN });
    const clientDir = await fakeClientBuild();
    // Two instances on one database, each with its own copy of the live version.
    first = await buildTestApp(use(), { config, clientDir });
    second = await buildTestApp(use(), { config, clientDir });
    cookie = await signIn(first, sink, ADMIN);
  }, 60_000);
  afterAll(async () => {
    await first?.close();
    await second?.close();
    await sink?.close();
  });

  it('is served by this instance at once and by another within 5 s', async () => {
    const headers = { cookie, origin: first.config.publicUrl };
    const { draft } = (await first.inject({ url: STORE_PATH, headers })).json() as StoreState;
    const checkoutUrl = `https://pay.example.com/b/v${Date.now()}`;
    const saved = await first.inject({
      method: 'PUT',
      url: STORE_PATH,
      headers,
      payload: { content: { ...draft, product: { ...draft.product, checkoutUrl } } },
    });
    expect(saved.statusCode).toBe(200);
    expect((await second.inject('/')).body).not.toContain(checkoutUrl);

    const published = await first.inject({ method: 'POST', url: STORE_PUBLISH_PATH, headers });
    expect(published.statusCode).toBe(201);
    const publishedAt = performance.now();
    expect((await first.inject('/')).body).toContain(`<a href="${checkoutUrl}">Buy</a>`);

    let seenAfter: number | undefined;
    while (performance.now() - publishedAt < 5000) {
      if ((await second.inject('/')).body.includes(checkoutUrl)) {
        seenAfter = performance.now() - publishedAt;
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(seenAfter, 'the second instance served the new version within 5 s').toBeDefined();
  });
});
