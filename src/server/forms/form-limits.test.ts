import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTcpProxy, type TcpProxy } from '../../../tests/support/tcp-proxy';
import { buildTestApp } from '../../../tests/support/test-app';
import { testConfig } from '../../../tests/support/test-config';
import {
  createTestDatabase,
  testDatabaseKinds,
  type TestDatabase,
} from '../../../tests/support/test-database';
import { openDatabase, type AppDatabase } from '../db/database';

const visitor = { name: 'Ada', message: 'Hello' };
let counter = 0;
const freshEmail = () => `limits-${Date.now()}-${++counter}@example.com`;

function post(app: FastifyInstance, form: string, remoteAddress: string) {
  return app.inject({
    method: 'POST',
    url: `/api/forms/${form}`,
    payload: { ...visitor, email: freshEmail() },
    remoteAddress,
  });
}

describe('form rate limit (FORM_RATE_LIMIT per client address per 10 minutes, all forms)', () => {
  let database: TestDatabase;
  let app: FastifyInstance;
  beforeAll(async () => {
    database = await createTestDatabase('embedded-postgres');
    app = await buildTestApp(database, { config: await testConfig({ FORM_RATE_LIMIT: '3' }) });
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await database?.dispose();
  });

  it('counts every form together and refuses the next with a 429 the form can show', async () => {
    const statuses = [];
    for (const form of ['order', 'contact', 'refund']) {
      statuses.push((await post(app, form, '198.51.100.1')).statusCode);
    }
    expect(statuses).toEqual([200, 200, 200]);
    const refused = await post(app, 'free-guide', '198.51.100.1');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({
      status: 'error',
      message: 'Too many submissions from your network. Please try again in 10 minutes.',
    });
    expect(refused.headers['retry-after']).toBeDefined();
    expect((await post(app, 'order', '198.51.100.2')).statusCode).toBe(200);
  });

  it('defaults to 10 submissions', async () => {
    expect((await testConfig()).formRateLimit).toBe(10);
  });
});

describe('form submissions while PostgreSQL cannot be reached', () => {
  let database: AppDatabase;
  let app: FastifyInstance;
  beforeAll(async () => {
    // Nothing listens on port 1: every connection attempt is refused at once.
    database = await openDatabase({ databaseUrl: 'postgres://app@127.0.0.1:1/site' });
    app = await buildTestApp(database);
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  it('answers 503 with the error status, and the server keeps answering', async () => {
    const response = await post(app, 'order', '192.0.2.1');
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({
      status: 'error',
      message: 'The service is temporarily unavailable. Please try again in a moment.',
    });
    expect((await app.inject('/healthz')).statusCode).toBe(200);
  });
});

describe('form submissions on a closed embedded database', () => {
  it('answer 503, not a crash', async () => {
    const database = await createTestDatabase('embedded-postgres');
    const app = await buildTestApp(database);
    await database.close();
    const response = await post(app, 'contact', '192.0.2.2');
    expect(response.statusCode).toBe(503);
    expect(response.json().status).toBe('error');
    await app.close();
  }, 60_000);
});

describe.runIf(testDatabaseKinds.includes('postgres'))(
  'form submissions when PostgreSQL goes away and comes back',
  () => {
    let database: TestDatabase;
    let proxy: TcpProxy;
    let proxied: AppDatabase;
    let app: FastifyInstance;
    beforeAll(async () => {
      database = await createTestDatabase('postgres');
      const url = new URL(database.url!);
      proxy = await startTcpProxy(Number(url.port || 5432));
      url.host = `127.0.0.1:${proxy.port}`;
      proxied = await openDatabase({ databaseUrl: url.toString() });
      app = await buildTestApp(proxied, { config: await testConfig({ FORM_RATE_LIMIT: '100' }) });
    }, 60_000);
    afterAll(async () => {
      await app?.close();
      await proxied?.close();
      await proxy?.close();
      await database?.dispose();
    });

    it('answers error while it is down and success again once it is back', async () => {
      expect((await post(app, 'order', '192.0.2.3')).statusCode).toBe(200);
      await proxy.stop();
      const down = await post(app, 'order', '192.0.2.3');
      expect(down.statusCode).toBe(503);
      expect(down.json().status).toBe('error');
      await proxy.start();
      const back = await post(app, 'order', '192.0.2.3');
      expect(back.statusCode).toBe(200);
      // Stored again; an order answers before its email is sent.
      expect(back.json()).toEqual({ status: 'success', emailSent: false });
    });
  },
);
