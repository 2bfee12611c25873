import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { authApi } from '../../shared/auth';
import {
  codeFromMail,
  freshIp,
  requestCode,
  sessionCookie,
  signIn,
  submitCode,
} from '../../../tests/support/sign-in';
import { startSmtpSink, type SmtpSink } from '../../../tests/support/smtp-sink';
import { buildTestApp } from '../../../tests/support/test-app';
import { testConfig } from '../../../tests/support/test-config';
import { describeEachDatabase } from '../../../tests/support/test-database';
import { authLimits } from './auth-limits';

const ADMIN = 'owner@example.com';
let counter = 0;
/** An address no other test uses, so per-email limits and codes never mix tests up. */
const freshEmail = (name = 'visitor') => `${name}-${++counter}@example.com`;

describeEachDatabase('sign-in with an emailed code', (use) => {
  let sink: SmtpSink;
  let app: FastifyInstance;

  beforeAll(async () => {
    sink = await startSmtpSink();
    app = await buildTestApp(use(), {
      config: await testConfig({ SMTP_URL: sink.url, ADMIN_EMAILS: ADMIN }),
    });
  });
  afterAll(async () => {
    await app?.close();
    await sink?.close();
  });

  const db = () => use().db;

  async function storedCode(email: string) {
    const { rows } = await sql<{ value: string; expiresAt: Date }>`
      select value, "expiresAt" from auth_verification where identifier = ${`sign-in-otp-${email}`}
    `.execute(db());
    return rows;
  }

  async function sendAndRead(email: string) {
    const before = sink.messages.length;
    const response = await requestCode(app, email);
    expect(response.statusCode, response.body).toBe(200);
    return codeFromMail(sink, email, before);
  }

  it('emails a 6-digit code, stores only its hash for 10 minutes, and signs in with it', async () => {
    const sentAt = Date.now();
    const before = sink.messages.length;
    const response = await requestCode(app, ADMIN);
    const answeredAt = Date.now();
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true });

    const code = await codeFromMail(sink, ADMIN, before);
    expect(code).toMatch(/^\d{6}$/);
    const mail = sink.messages.at(-1)!;
    expect(mail.subject).toBe('Your Soul Reset sign-in code');
    expect(mail.html).toContain(code);

    const [stored] = await storedCode(ADMIN);
    expect(stored).toBeDefined();
    expect(stored!.value).not.toContain(code);
    expect(stored!.value).toMatch(/^[\w-]{43}:0$/); // SHA-256, base64url, and 0 wrong tries
    const expiresAt = new Date(stored!.expiresAt).getTime();
    expect(authLimits.codeExpiresIn).toBeLessThanOrEqual(600);
    expect(expiresAt).toBeGreaterThanOrEqual(sentAt + authLimits.codeExpiresIn * 1000 - 1);
    expect(expiresAt).toBeLessThanOrEqual(answeredAt + 600_000);

    const signedIn = await submitCode(app, ADMIN, code);
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expect(signedIn.json()).toEqual({ user: { email: ADMIN }, isAdmin: true });
    expect(signedIn.body).not.toContain('token');
    const cookie = sessionCookie(signedIn)!;
    expect(cookie).toBeDefined();

    const session = await app.inject({ url: authApi.session, headers: { cookie } });
    expect(session.json()).toMatchObject({ user: { email: ADMIN }, isAdmin: true });
    const admin = await app.inject({ url: authApi.adminSession, headers: { cookie } });
    expect(admin.statusCode).toBe(200);
    expect(admin.json()).toEqual({ email: ADMIN });
    expect(await storedCode(ADMIN)).toEqual([]);
  });

  it('sets an HttpOnly, SameSite=Lax session cookie that lasts 12 hours and never slides', async () => {
    const email = freshEmail();
    const code = await sendAndRead(email);
    const response = await submitCode(app, email, code);
    const cookie = response.cookies.find((c) => c.name === 'soul-reset.session_token')!;
    expect(cookie.httpOnly).toBe(true);
    expect(cookie.sameSite).toBe('Lax');
    expect(cookie.secure).toBeFalsy(); // PUBLIC_URL is http here
    expect(cookie.maxAge).toBe(12 * 60 * 60);

    const { rows } = await sql<{ id: string; createdAt: Date; expiresAt: Date }>`
      select s.id, s."createdAt", s."expiresAt" from auth_session s
      join auth_user u on u.id = s."userId" where u.email = ${email}`.execute(db());
    const row = rows[0]!;
    const lifetime = new Date(row.expiresAt).getTime() - new Date(row.createdAt).getTime();
    expect(Math.abs(lifetime - 12 * 60 * 60 * 1000)).toBeLessThan(5_000);

    // An 11-hour-old session is used: its end stays where it was.
    await sql`update auth_session set "createdAt" = now() - interval '11 hours',
      "updatedAt" = now() - interval '11 hours', "expiresAt" = now() + interval '1 hour'
      where id = ${row.id}`.execute(db());
    const cookieHeader = `${cookie.name}=${cookie.value}`;
    const { rows: beforeUse } = await sql<{ expiresAt: Date }>`
      select "expiresAt" from auth_session where id = ${row.id}`.execute(db());
    const used = await app.inject({ url: authApi.session, headers: { cookie: cookieHeader } });
    expect(used.json()).toMatchObject({ user: { email }, isAdmin: false });
    const { rows: afterUse } = await sql<{ expiresAt: Date }>`
      select "expiresAt" from auth_session where id = ${row.id}`.execute(db());
    expect(new Date(afterUse[0]!.expiresAt).getTime()).toBe(
      new Date(beforeUse[0]!.expiresAt).getTime(),
    );

    // Past its end the cookie is worthless.
    await sql`update auth_session set "expiresAt" = now() - interval '1 second' where id = ${row.id}`.execute(
      db(),
    );
    const expired = await app.inject({ url: authApi.session, headers: { cookie: cookieHeader } });
    expect(expired.json()).toBeNull();
  });

  it('answers a code request the same whether or not the account exists', async () => {
    const known = freshEmail('known');
    await signIn(app, sink, known);
    const unknown = freshEmail('unknown');
    const before = sink.messages.length;
    const [forKnown, forUnknown] = [await requestCode(app, known), await requestCode(app, unknown)];
    expect(forKnown.statusCode).toBe(forUnknown.statusCode);
    expect(forKnown.body).toBe(forUnknown.body);
    expect(forKnown.headers['set-cookie']).toEqual(forUnknown.headers['set-cookie']);
    // Both get a code: the first sign-in creates the account (SPEC.md §6).
    await codeFromMail(sink, known, before);
    await codeFromMail(sink, unknown, before);
    const { rows } = await sql<{ role: string }>`
      select role from auth_user where email = ${known}`.execute(db());
    expect(rows).toEqual([{ role: 'user' }]);
  });

  it('refuses a wrong code with the auth message, and still takes the right one', async () => {
    const email = freshEmail();
    const code = await sendAndRead(email);
    const wrong = code === '000000' ? '111111' : '000000';
    const refused = await submitCode(app, email, wrong);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ error: 'Bad Request', message: 'Invalid OTP' });
    expect(sessionCookie(refused)).toBeUndefined();
    expect((await submitCode(app, email, code)).statusCode).toBe(200);
  });

  it('refuses an expired code', async () => {
    const email = freshEmail();
    const code = await sendAndRead(email);
    await sql`update auth_verification set "expiresAt" = now() - interval '1 second'
      where identifier = ${`sign-in-otp-${email}`}`.execute(db());
    const response = await submitCode(app, email, code);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('OTP expired');
    expect(sessionCookie(response)).toBeUndefined();
  });

  it('locks a code after 3 wrong tries: the fourth try fails even with the right code', async () => {
    const email = freshEmail();
    const code = await sendAndRead(email);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < authLimits.codeAttempts; i++) {
      expect((await submitCode(app, email, wrong)).json().message).toBe('Invalid OTP');
    }
    const fourth = await submitCode(app, email, code);
    expect(fourth.statusCode).toBe(403);
    expect(fourth.json()).toEqual({ error: 'Forbidden', message: 'Too many attempts' });
    expect(sessionCookie(fourth)).toBeUndefined();
    // A new code works again.
    const next = await sendAndRead(email);
    expect((await submitCode(app, email, next)).statusCode).toBe(200);
  });

  it('takes a code once: a replay is refused', async () => {
    const email = freshEmail();
    const code = await sendAndRead(email);
    expect((await submitCode(app, email, code)).statusCode).toBe(200);
    const replay = await submitCode(app, email, code);
    expect(replay.statusCode).toBe(400);
    expect(sessionCookie(replay)).toBeUndefined();
  });

  it('gives one session to two parallel verifications of one code', async () => {
    const email = freshEmail();
    const code = await sendAndRead(email);
    const answers = await Promise.all([
      submitCode(app, email, code),
      submitCode(app, email, code),
      submitCode(app, email, code),
    ]);
    const statuses = answers.map((a) => a.statusCode).sort();
    expect(statuses).toEqual([200, 400, 400]);
    const { rows } = await sql<{ count: number }>`
      select count(*)::int as count from auth_session s join auth_user u on u.id = s."userId"
      where u.email = ${email}`.execute(db());
    expect(rows[0]!.count).toBe(1);
  });

  it(`sends at most ${authLimits.sendsPerEmail.max} codes per email in 10 minutes, from any IP`, async () => {
    const email = freshEmail();
    for (let i = 0; i < authLimits.sendsPerEmail.max; i++) {
      expect((await requestCode(app, email, freshIp())).statusCode).toBe(200);
    }
    const throttled = await requestCode(app, ` ${email.toUpperCase()} `, freshIp());
    expect(throttled.statusCode).toBe(429);
    expect(throttled.json()).toEqual({
      error: 'Too Many Requests',
      message: 'Too many codes were requested. Please wait a few minutes and try again.',
    });
    const retryAfter = Number(throttled.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(authLimits.sendsPerEmail.window);
    // Another address is not affected; and after the window the address may ask again.
    expect((await requestCode(app, freshEmail())).statusCode).toBe(200);
    await sql`update auth_send_throttle set window_started_at = now() - interval '11 minutes'
      where key = ${`email:${email}`}`.execute(db());
    expect((await requestCode(app, email)).statusCode).toBe(200);
  });

  it(`sends at most ${authLimits.sendsPerIp.max} codes per client IP in 10 minutes; forwarding headers do not change the IP`, async () => {
    const ip = freshIp();
    for (let i = 0; i < authLimits.sendsPerIp.max; i++) {
      const response = await app.inject({
        method: 'POST',
        url: authApi.sendCode,
        remoteAddress: ip,
        // TRUST_PROXY is unset: a visitor's own X-Forwarded-For must not make a new bucket.
        headers: {
          origin: app.config.publicUrl,
          'x-forwarded-for': `203.0.113.${i}`,
          'x-real-ip': `198.51.100.${i}`,
        },
        payload: { email: freshEmail(), type: 'sign-in' },
      });
      expect(response.statusCode).toBe(200);
    }
    const throttled = await app.inject({
      method: 'POST',
      url: authApi.sendCode,
      remoteAddress: ip,
      headers: { origin: app.config.publicUrl, 'x-forwarded-for': '203.0.113.250' },
      payload: { email: freshEmail(), type: 'sign-in' },
    });
    expect(throttled.statusCode).toBe(429);
    expect((await requestCode(app, freshEmail(), freshIp())).statusCode).toBe(200);
  });

  it('gives better-auth the real client IP: code checks are limited per IP, not globally', async () => {
    const ip = freshIp();
    const email = freshEmail();
    let statuses: number[] = [];
    for (let i = 0; i <= authLimits.verifiesPerIp.max; i++) {
      const response = await app.inject({
        method: 'POST',
        url: authApi.signIn,
        remoteAddress: ip,
        headers: { origin: app.config.publicUrl, 'x-forwarded-for': `203.0.113.${i}` },
        payload: { email, otp: '000000' },
      });
      statuses.push(response.statusCode);
    }
    expect(statuses.at(-1)).toBe(429);
    expect(statuses.slice(0, -1).every((status) => status !== 429)).toBe(true);
    // Another client is not in that bucket.
    statuses = [(await submitCode(app, email, '000000', freshIp())).statusCode];
    expect(statuses).toEqual([400]);
    const { rows } = await sql<{ key: string }>`select key from auth_rate_limit`.execute(db());
    expect(rows.some((row) => row.key.includes(ip))).toBe(true);
    expect(rows.some((row) => row.key.includes('203.0.113'))).toBe(false);
  });

  it('says clearly what is wrong with a bad request', async () => {
    const noEmail = await requestCode(app, 'not-an-email');
    expect(noEmail.statusCode).toBe(400);
    expect(noEmail.json()).toEqual({
      error: 'Bad Request',
      message: 'Enter a valid email address.',
    });
    const otherType = await app.inject({
      method: 'POST',
      url: authApi.sendCode,
      headers: { origin: app.config.publicUrl },
      payload: { email: freshEmail(), type: 'forget-password' },
    });
    expect(otherType.statusCode).toBe(400);
    const longCode = await submitCode(app, freshEmail(), '1234567');
    expect(longCode.statusCode).toBe(400);
    expect(longCode.json().message).toBe('The code has 6 digits.');
  });

  it('refuses a sign-in request that does not come from the site (Origin)', async () => {
    for (const origin of [undefined, 'https://evil.example']) {
      const response = await app.inject({
        method: 'POST',
        url: authApi.sendCode,
        headers: origin ? { origin } : {},
        payload: { email: freshEmail(), type: 'sign-in' },
      });
      expect(response.statusCode).toBe(403);
      expect(response.json().message).toBe('This request must come from the site itself.');
    }
  });

  it('exposes no other better-auth endpoint', async () => {
    for (const url of [
      '/api/auth/sign-up/email',
      '/api/auth/admin/list-users',
      '/api/auth/admin/set-role',
      '/api/auth/email-otp/request-password-reset',
    ]) {
      const response = await app.inject({
        method: 'POST',
        url,
        headers: { origin: app.config.publicUrl },
        payload: {},
      });
      expect(response.statusCode, url).toBe(404);
    }
  });

  it('logs out by deleting the session: the old cookie is refused afterwards', async () => {
    const cookie = await signIn(app, sink, ADMIN);
    expect((await app.inject({ url: authApi.adminSession, headers: { cookie } })).statusCode).toBe(
      200,
    );
    const withoutOrigin = await app.inject({
      method: 'POST',
      url: authApi.signOut,
      headers: { cookie },
      payload: {},
    });
    expect(withoutOrigin.statusCode).toBe(403);

    const out = await app.inject({
      method: 'POST',
      url: authApi.signOut,
      headers: { cookie, origin: app.config.publicUrl },
      payload: {},
    });
    expect(out.statusCode).toBe(200);
    const token = decodeURIComponent(cookie.split('=')[1]!).split('.')[0]!;
    const { rows } = await sql`select 1 from auth_session where token = ${token}`.execute(db());
    expect(rows).toEqual([]);

    const replay = await app.inject({ url: authApi.adminSession, headers: { cookie } });
    expect(replay.statusCode).toBe(401);
    expect((await app.inject({ url: authApi.session, headers: { cookie } })).json()).toBeNull();
  });

  it('answers 503 with a clear message when the code email cannot be sent', async () => {
    sink.rejectAll(true);
    try {
      const response = await requestCode(app, freshEmail());
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({
        error: 'Service Unavailable',
        message: 'The code could not be sent right now. Please try again in a moment.',
      });
    } finally {
      sink.rejectAll(false);
    }
  });
});

describeEachDatabase('sign-in over https', (use) => {
  it('marks the session cookie Secure when PUBLIC_URL is https', async () => {
    const sink = await startSmtpSink();
    const publicUrl = 'https://shop.example.com';
    const app = await buildTestApp(use(), {
      config: await testConfig({ SMTP_URL: sink.url, PUBLIC_URL: publicUrl }),
    });
    try {
      const email = freshEmail();
      expect((await requestCode(app, email)).statusCode).toBe(200);
      const response = await submitCode(app, email, await codeFromMail(sink, email));
      expect(response.statusCode).toBe(200);
      const cookie = response.cookies.find((c) => c.name.endsWith('session_token'))!;
      expect(cookie.name).toBe('__Secure-soul-reset.session_token');
      expect(cookie.secure).toBe(true);
      expect(cookie.httpOnly).toBe(true);
      expect(cookie.sameSite).toBe('Lax');
    } finally {
      await app.close();
      await sink.close();
    }
  });
});

describeEachDatabase('sign-in behind a trusted proxy (TRUST_PROXY)', (use) => {
  it("counts each client by the proxy's X-Forwarded-For, not the proxy's own address", async () => {
    const sink = await startSmtpSink();
    const app = await buildTestApp(use(), {
      config: await testConfig({ SMTP_URL: sink.url, TRUST_PROXY: 'true' }),
    });
    try {
      const proxy = freshIp();
      const send = (client: string) =>
        app.inject({
          method: 'POST',
          url: authApi.sendCode,
          remoteAddress: proxy,
          headers: { origin: app.config.publicUrl, 'x-forwarded-for': client },
          payload: { email: freshEmail(), type: 'sign-in' },
        });
      for (let i = 0; i < authLimits.sendsPerIp.max; i++) {
        expect((await send('203.0.113.7')).statusCode).toBe(200);
      }
      expect((await send('203.0.113.7')).statusCode).toBe(429);
      expect((await send('203.0.113.8')).statusCode).toBe(200);
    } finally {
      await app.close();
      await sink.close();
    }
  });
});

describeEachDatabase('sign-in while the mail server holds back its reply', (use) => {
  it('answers within MAIL_TIMEOUT_MS, and the code arrives', async () => {
    const sink = await startSmtpSink();
    const app = await buildTestApp(use(), {
      config: await testConfig({ SMTP_URL: sink.url, MAIL_TIMEOUT_MS: '500' }),
    });
    try {
      // The server takes the whole email and answers its end 1.5 s later.
      sink.delayEach(1_500);
      const email = freshEmail();
      const started = performance.now();
      const response = await requestCode(app, email);
      expect(response.statusCode).toBe(200);
      expect(performance.now() - started).toBeLessThan(500 + 1_000);
      expect(await codeFromMail(sink, email)).toMatch(/^\d{6}$/);
    } finally {
      await app.close();
      await sink.close();
    }
  });
});
