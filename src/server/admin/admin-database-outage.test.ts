import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tableRowsPath } from '../../shared/admin/table-api';
import { signIn } from '../../../tests/support/sign-in';
import { startSmtpSink, type SmtpSink } from '../../../tests/support/smtp-sink';
import { startTcpProxy, type TcpProxy } from '../../../tests/support/tcp-proxy';
import { buildTestApp } from '../../../tests/support/test-app';
import { testConfig } from '../../../tests/support/test-config';
import {
  createTestDatabase,
  testDatabaseKinds,
  type TestDatabase,
} from '../../../tests/support/test-database';
import { openDatabase, type AppDatabase } from '../db/database';

const ADMIN = 'owner@example.com';

describe.runIf(testDatabaseKinds.includes('postgres'))(
  'admin routes when PostgreSQL goes away and comes back',
  () => {
    let database: TestDatabase;
    let proxy: TcpProxy;
    let proxied: AppDatabase;
    let sink: SmtpSink;
    let app: FastifyInstance;
    let cookie: string;
    beforeAll(async () => {
      database = await createTestDatabase('postgres');
      const url = new URL(database.url!);
      proxy = await startTcpProxy(Number(url.port || 5432));
      url.host = `127.0.0.1:${proxy.port}`;
      proxied = await openDatabase({ databaseUrl: url.toString() });
      sink = await startSmtpSink();
      app = await buildTestApp(proxied, {
        config: await testConfig({ SMTP_URL: sink.url, ADMIN_EMAILS: ADMIN }),
      });
      cookie = await signIn(app, sink, ADMIN);
    }, 60_000);
    afterAll(async () => {
      await app?.close();
      await proxied?.close();
      await proxy?.close();
      await sink?.close();
      await database?.dispose();
    });

    const list = () => app.inject({ url: tableRowsPath('form_submissions'), headers: { cookie } });

    it('answers 503 with a clear message while it is down, and the list again once it is back', async () => {
      expect((await list()).statusCode).toBe(200);
      await proxy.stop();
      const down = await list();
      expect(down.statusCode).toBe(503);
      expect(down.json()).toEqual({
        error: 'Service Unavailable',
        message: 'The service is temporarily unavailable. Please try again in a moment.',
      });
      await proxy.start();
      expect((await list()).statusCode).toBe(200);
    });
  },
);
