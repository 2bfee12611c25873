import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { authApi } from '../../shared/auth';
import { ADMIN_PREFIX, adminGuarded } from './admin-plugin';
import { signIn } from '../../../tests/support/sign-in';
import { startSmtpSink, type SmtpSink } from '../../../tests/support/smtp-sink';
import { buildTestApp } from '../../../tests/support/test-app';
import { testConfig } from '../../../tests/support/test-config';
import { describeEachDatabase } from '../../../tests/support/test-database';
import { sql } from 'kysely';

const ADMIN = 'owner@example.com';
const OPERATOR = 'operator@example.com';
const VISITOR = 'visitor@example.com';
const METHODS = ['GET', 'POST', 'PUT', 'DELETE'] as const;

/** Stands in for the admin routes: registered the way app.ts registers them, behind the guard. */
function probeRoutes(app: FastifyInstance) {
  void app.register(
    async (scope) => {
      await scope.register(adminGuarded);
      for (const method of METHODS) {
        scope.route({
          method,
          url: '/probe',
          handler: async (request) => ({ reached: method, by: request.admin?.email }),
        });
      }
    },
    { prefix: ADMIN_PREFIX },
  );
}

describeEachDatabase('the /api/admin scope', (use) => {
  let sink: SmtpSink;
  let app: FastifyInstance;
  let adminCookie: string;
  let operatorCookie: string;
  let visitorCookie: string;

  beforeAll(async () => {
    sink = await startSmtpSink();
    app = await buildTestApp(use(), {
      config: await testConfig({ SMTP_URL: sink.url, ADMIN_EMAILS: `${ADMIN}, ${OPERATOR}` }),
      configure: probeRoutes,
    });
    adminCookie = await signIn(app, sink, ADMIN);
    operatorCookie = await signIn(app, sink, OPERATOR);
    visitorCookie = await signIn(app, sink, VISITOR);
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await sink?.close();
  });

  const call = (
    method: (typeof METHODS)[number],
    url: string,
    headers: Record<string, string> = {},
  ) =>
    app.inject({
      method,
      url,
      headers: { origin: app.config.publicUrl, ...headers },
      ...(method === 'GET' ? {} : { payload: {} }),
    });

  it('gives the signed-in admin their email, and sets the role from ADMIN_EMAILS at sign-up', async () => {
    const response = await call('GET', authApi.adminSession, { cookie: adminCookie });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ email: ADMIN });
    expect(response.headers['cache-control']).toBe('no-store');
    const { rows } = await sql<{ email: string; role: string }>`
      select email, role from auth_user order by email`.execute(use().db);
    expect(rows).toEqual([
      { email: OPERATOR, role: 'admin' },
      { email: ADMIN, role: 'admin' },
      { email: VISITOR, role: 'user' },
    ]);
  });

  it('answers 401 without a session and 403 to a non-admin, on every admin route and method', async () => {
    const routes = [
      ['GET', authApi.adminSession],
      ...METHODS.map((method) => [method, '/api/admin/probe'] as const),
    ] as const;
    for (const [method, url] of routes) {
      const anonymous = await call(method, url);
      expect(anonymous.statusCode, `${method} ${url}`).toBe(401);
      expect(anonymous.json()).toEqual({ error: 'Unauthorized', message: 'Sign in to continue.' });
      const forged = await call(method, url, { cookie: 'soul-reset.session_token=forged.value' });
      expect(forged.statusCode, `${method} ${url} forged`).toBe(401);
      const visitor = await call(method, url, { cookie: visitorCookie });
      expect(visitor.statusCode, `${method} ${url} visitor`).toBe(403);
      expect(visitor.json()).toEqual({
        error: 'Forbidden',
        message: 'This account has no access to the admin area.',
      });
      const admin = await call(method, url, { cookie: operatorCookie });
      expect(admin.statusCode, `${method} ${url} admin`).toBe(200);
    }
  });

  it('lets a route registered later in the scope run only for admins', async () => {
    for (const method of METHODS) {
      const response = await call(method, '/api/admin/probe', { cookie: adminCookie });
      expect(response.json()).toEqual({ reached: method, by: ADMIN });
    }
  });

  it('refuses admin writes whose Origin is missing or foreign, and allows reads without it', async () => {
    for (const method of ['POST', 'PUT', 'DELETE'] as const) {
      for (const origin of [undefined, 'https://evil.example', 'http://127.0.0.1:1']) {
        const response = await app.inject({
          method,
          url: '/api/admin/probe',
          headers: { cookie: adminCookie, ...(origin ? { origin } : {}) },
          payload: {},
        });
        expect(response.statusCode, `${method} from ${origin}`).toBe(403);
        expect(response.json().message).toBe('This request must come from the site itself.');
      }
    }
    const read = await app.inject({ url: '/api/admin/probe', headers: { cookie: adminCookie } });
    expect(read.statusCode).toBe(200);
  });

  it('revokes access as soon as an email leaves ADMIN_EMAILS, with the same session', async () => {
    const narrowed = await buildTestApp(use(), {
      config: await testConfig({ SMTP_URL: sink.url, ADMIN_EMAILS: ADMIN }),
      configure: probeRoutes,
    });
    try {
      const operator = await narrowed.inject({
        url: authApi.adminSession,
        headers: { cookie: operatorCookie },
      });
      expect(operator.statusCode).toBe(403);
      const admin = await narrowed.inject({
        url: authApi.adminSession,
        headers: { cookie: adminCookie },
      });
      expect(admin.statusCode).toBe(200);
    } finally {
      await narrowed.close();
    }
  });
});
