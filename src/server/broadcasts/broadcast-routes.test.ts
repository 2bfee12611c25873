import type { FastifyInstance, InjectOptions } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { eventually } from '../../../tests/support/eventually';
import { signIn } from '../../../tests/support/sign-in';
import { startSmtpSink, type SmtpSink } from '../../../tests/support/smtp-sink';
import { buildTestApp } from '../../../tests/support/test-app';
import { testConfig } from '../../../tests/support/test-config';
import { describeEachDatabase } from '../../../tests/support/test-database';
import {
  ADMIN_BROADCAST_PREVIEW_DOCUMENT_PATH,
  ADMIN_BROADCASTS_PATH,
  adminBroadcastPath,
  SENDER_MISSING_MESSAGE,
  type AdminBroadcast,
  type EmailPreview,
} from '../../shared/broadcasts/broadcasts-api';
import { EMAIL_PREVIEW_CSP } from './preview-document';
import { STORE_PATH, STORE_PUBLISH_PATH, type StoreState } from '../../shared/store/store-api';

const ADMIN = 'owner@example.com';
const DRAFT = {
  subject: 'Spring notes',
  preheader: 'Three things for the season',
  html: '<p>Hello <a href="https://example.com/read">read this</a></p><script>alert(1)</script>',
};

describeEachDatabase('Admin → Broadcasts', (use) => {
  let sink: SmtpSink;
  let app: FastifyInstance;
  let cookie: string;

  beforeAll(async () => {
    sink = await startSmtpSink();
    app = await buildTestApp(use(), {
      config: await testConfig({
        SMTP_URL: sink.url,
        ADMIN_EMAILS: ADMIN,
        MAIL_RATE_PER_SECOND: '1000',
        MAIL_RETRY_DELAYS: '0.2',
      }),
    });
    cookie = await signIn(app, sink, ADMIN);
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await sink?.close();
  });

  function admin(method: InjectOptions['method'], url: string, payload?: unknown) {
    return app.inject({
      method,
      url,
      ...(payload === undefined ? {} : { payload: payload as InjectOptions['payload'] }),
      headers: { cookie, origin: app.config.publicUrl },
    });
  }
  const get = async (id: number) =>
    (await admin('GET', adminBroadcastPath(id))).json<AdminBroadcast>();
  async function create(draft: object = DRAFT): Promise<number> {
    const response = await admin('POST', ADMIN_BROADCASTS_PATH, draft);
    expect(response.statusCode).toBe(201);
    return response.json<{ id: number }>().id;
  }
  async function setSender(sender: { name: string; postalAddress: string }) {
    const state = (await admin('GET', STORE_PATH)).json<StoreState>();
    const saved = await admin('PUT', STORE_PATH, { content: { ...state.draft, sender } });
    expect(saved.statusCode).toBe(200);
    expect((await admin('POST', STORE_PUBLISH_PATH)).statusCode).toBe(201);
    await app.store.refresh();
  }
  async function subscribers(prefix: string, count: number): Promise<number[]> {
    const { rows } = await sql<{ id: number }>`
      insert into list_subscribers (email, name, status, source, confirmed_at)
      select ${prefix} || g || '@example.com', 'Name ' || g, 'confirmed', 'import',
        now() - interval '1 hour'
      from generate_series(1, ${count}::int) g
      returning id`.execute(use().db);
    return rows.map((row) => Number(row.id));
  }
  const received = (prefix: string) =>
    sink.messages.filter((mail) => mail.envelopeTo.some((to) => to.startsWith(prefix)));

  it('keeps strangers and other sites out', async () => {
    expect((await app.inject({ method: 'GET', url: ADMIN_BROADCASTS_PATH })).statusCode).toBe(401);
    const foreign = await app.inject({
      method: 'POST',
      url: ADMIN_BROADCASTS_PATH,
      payload: DRAFT,
      headers: { cookie, origin: 'https://evil.example' },
    });
    expect(foreign.statusCode).toBe(403);
  });

  it('saves a sanitised draft with its campaign slug, lists it and logs the change', async () => {
    const bad = await admin('POST', ADMIN_BROADCASTS_PATH, { ...DRAFT, subject: ' ' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ message: string }>().message).toBe('The subject cannot be empty.');
    const id = await create();
    const broadcast = await get(id);
    expect(broadcast).toMatchObject({
      id,
      status: 'draft',
      slug: `spring-notes-${id}`,
      subject: 'Spring notes',
      preheader: 'Three things for the season',
      excludeBuyers: false,
      recipients: 0,
      sent: 0,
      ratePerSecond: null,
    });
    expect(broadcast.html).not.toContain('script');
    const list = (await admin('GET', ADMIN_BROADCASTS_PATH)).json<{ rows: AdminBroadcast[] }>();
    expect(list.rows[0]!.id).toBe(id);
    const edited = await admin('PUT', adminBroadcastPath(id), { ...DRAFT, subject: 'Summer' });
    expect(edited.json<AdminBroadcast>()).toMatchObject({
      subject: 'Summer',
      slug: `summer-${id}`,
    });
    const { rows: audit } = await sql<{ action: string; admin_email: string }>`
      select action, admin_email from admin_audit_log where table_name = 'broadcasts'
      order by id`.execute(use().db);
    expect(audit).toEqual([
      { action: 'create', admin_email: ADMIN },
      { action: 'update', admin_email: ADMIN },
    ]);
    expect((await admin('DELETE', adminBroadcastPath(id))).statusCode).toBe(204);
    expect((await admin('GET', adminBroadcastPath(id))).statusCode).toBe(404);
  });

  it('refuses to send or test until the sender name and postal address are set; previews meanwhile', async () => {
    const id = await create();
    const refused = await admin('POST', `${adminBroadcastPath(id)}/send`, {});
    expect(refused.statusCode).toBe(409);
    // The app's one error shape: { error: 'Conflict', message }.
    expect(refused.json<{ message: string }>().message).toBe(SENDER_MISSING_MESSAGE);
    const test = await admin('POST', `${ADMIN_BROADCASTS_PATH}/test`, DRAFT);
    expect(test.statusCode).toBe(409);
    expect((await get(id)).status).toBe('draft');
    const preview = (
      await admin('POST', `${ADMIN_BROADCASTS_PATH}/preview`, DRAFT)
    ).json<EmailPreview>();
    expect(preview.subject).toBe('Spring notes');
    expect(preview.html).toContain('Hi Alex,');
    expect(preview.html).toContain('Your postal address');
    expect(preview.html).not.toContain('<script');
    expect(preview.text).toContain('Hi Alex,');
  });

  it('serves the preview as a document of its own, with a policy that lets its inline styles apply', async () => {
    const form = (draft: object) =>
      new URLSearchParams({ draft: JSON.stringify(draft) }).toString();
    const post = (headers: Record<string, string>, payload = form(DRAFT)) =>
      app.inject({
        method: 'POST',
        url: ADMIN_BROADCAST_PREVIEW_DOCUMENT_PATH,
        payload,
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      });
    const origin = app.config.publicUrl;

    const response = await post({ cookie, origin });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['content-security-policy']).toBe(EMAIL_PREVIEW_CSP);
    expect(EMAIL_PREVIEW_CSP).toContain("style-src 'unsafe-inline'");
    expect(EMAIL_PREVIEW_CSP).toContain("frame-ancestors 'self'");
    expect(EMAIL_PREVIEW_CSP).not.toContain('script-src');
    expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(response.headers['cache-control']).toBe('no-store');
    // Exactly the JSON preview's html: the server's sanitised rendering, escaped once.
    const json = (
      await admin('POST', `${ADMIN_BROADCASTS_PATH}/preview`, DRAFT)
    ).json<EmailPreview>();
    expect(response.body).toBe(json.html);
    expect(response.body).toContain('Hi Alex,');
    expect(response.body).toContain('style="');
    expect(response.body).not.toContain('<script');
    expect(response.body).not.toContain('&amp;amp;');

    // The admin page itself keeps its own policy.
    const page = await admin('GET', ADMIN_BROADCASTS_PATH);
    expect(page.headers['content-security-policy']).toContain("style-src 'self'");
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");

    expect((await post({ origin })).statusCode).toBe(401);
    expect((await post({ cookie, origin: 'https://evil.example' })).statusCode).toBe(403);
    expect((await post({ cookie })).statusCode).toBe(403);
    expect((await post({ cookie, origin }, 'nothing=here')).statusCode).toBe(400);
    expect((await post({ cookie, origin }, 'draft=%7Bnot+json')).statusCode).toBe(400);
    expect((await post({ cookie, origin }, form({ ...DRAFT, subject: '' }))).statusCode).toBe(400);
  });

  it('sends a test to the signed-in admin and previews with the sender and campaign links', async () => {
    await setSender({ name: 'Maya Stone', postalAddress: '12 Garden Lane, Portland' });
    const preview = (
      await admin('POST', `${ADMIN_BROADCASTS_PATH}/preview`, DRAFT)
    ).json<EmailPreview>();
    expect(preview.html).toContain('12 Garden Lane, Portland');
    expect(preview.html).toContain(
      'https://example.com/read?utm_source=newsletter&amp;utm_medium=email&amp;utm_campaign=preview',
    );
    const test = await admin('POST', `${ADMIN_BROADCASTS_PATH}/test`, DRAFT);
    expect(test.json()).toEqual({ sentTo: ADMIN });
    const mail = await sink.waitFor((each) => each.subject === '[Test] Spring notes');
    expect(mail.envelopeTo).toEqual([ADMIN]);
    expect(mail.text).toContain('Maya Stone');
  });

  it('sends now to every confirmed subscriber and reports the progress until sent', async () => {
    await subscribers('now', 3);
    const id = await create({ ...DRAFT, subject: 'Now' });
    const started = await admin('POST', `${adminBroadcastPath(id)}/send`, {});
    expect(started.statusCode).toBe(200);
    expect(started.json<AdminBroadcast>().status).toBe('sending');
    const done = await eventually(async () => {
      const broadcast = await get(id);
      return broadcast.status === 'sent' ? broadcast : undefined;
    });
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from list_subscribers where status = 'confirmed'`.execute(use().db);
    expect(done).toMatchObject({
      recipients: rows[0]!.n,
      sent: rows[0]!.n,
      failed: 0,
      bounced: 0,
      remaining: 0,
    });
    expect(done.finishedAt).not.toBeNull();
    expect(received('now')).toHaveLength(3);
    const edit = await admin('PUT', adminBroadcastPath(id), DRAFT);
    expect(edit.statusCode).toBe(409);
    expect((await admin('DELETE', adminBroadcastPath(id))).statusCode).toBe(409);
    expect((await admin('POST', `${adminBroadcastPath(id)}/send`, {})).statusCode).toBe(409);
  });

  it('schedules for a time, keeps the time through an edit, and cancels before it', async () => {
    const id = await create({ ...DRAFT, subject: 'Later' });
    const at = new Date(Date.now() + 3_600_000).toISOString();
    const bad = await admin('POST', `${adminBroadcastPath(id)}/send`, { at: 'tomorrow-ish' });
    expect(bad.statusCode).toBe(400);
    const scheduled = await admin('POST', `${adminBroadcastPath(id)}/send`, { at });
    expect(scheduled.json<AdminBroadcast>()).toMatchObject({
      status: 'scheduled',
      scheduledAt: at,
    });
    const edited = await admin('PUT', adminBroadcastPath(id), { ...DRAFT, subject: 'Later on' });
    expect(edited.json<AdminBroadcast>()).toMatchObject({ status: 'scheduled', scheduledAt: at });
    const cancelled = await admin('POST', `${adminBroadcastPath(id)}/cancel`);
    expect(cancelled.json<AdminBroadcast>()).toMatchObject({ status: 'cancelled', recipients: 0 });
    expect((await admin('POST', `${adminBroadcastPath(id)}/cancel`)).statusCode).toBe(409);
  });

  it('pauses, resumes and cancels a broadcast while it sends; messages in flight are recorded', async () => {
    await subscribers('held', 4);
    const release = sink.hold((mail) => mail.subject === 'Held');
    try {
      const id = await create({ ...DRAFT, subject: 'Held' });
      await admin('POST', `${adminBroadcastPath(id)}/send`, {});
      await eventually(async () => (sink.held() > 0 ? true : undefined));
      const paused = await admin('POST', `${adminBroadcastPath(id)}/pause`);
      expect(paused.json<AdminBroadcast>().status).toBe('paused');
      expect((await admin('POST', `${adminBroadcastPath(id)}/pause`)).statusCode).toBe(409);
      const resumed = await admin('POST', `${adminBroadcastPath(id)}/resume`);
      expect(resumed.json<AdminBroadcast>().status).toBe('sending');
      const cancelled = await admin('POST', `${adminBroadcastPath(id)}/cancel`);
      expect(cancelled.json<AdminBroadcast>().status).toBe('cancelled');
      // Cancelling skips every message no sender holds; those held (sending, or claimed and
      // next) still go, and only they: the sink holds them all until released.
      const held = await use()
        .db.selectFrom('broadcast_recipients')
        .select(sql<number>`count(*)::int`.as('n'))
        .where('broadcast_id', '=', id)
        .where('status', '=', 'pending')
        .executeTakeFirstOrThrow();
      const inFlight = held.n;
      expect(inFlight).toBeGreaterThan(0);
      release();
      const final = await eventually(async () => {
        const broadcast = await get(id);
        return broadcast.remaining === 0 ? broadcast : undefined;
      });
      expect(final.sent).toBe(inFlight);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(sink.messages.filter((mail) => mail.subject === 'Held')).toHaveLength(inFlight);
      const skipped = await use()
        .db.selectFrom('broadcast_recipients')
        .select(sql<number>`count(*)::int`.as('n'))
        .where('broadcast_id', '=', id)
        .where('status', '=', 'skipped')
        .executeTakeFirstOrThrow();
      expect(skipped.n).toBe(final.recipients - inFlight);
    } finally {
      release();
    }
  });

  it('counts, per broadcast, unsubscribes after it and verified paid orders by its recipients within 7 days', async () => {
    const db = use().db;
    const [bought, late, before, quit] = await subscribers('res', 4);
    const broadcast = await db
      .insertInto('broadcasts')
      .values({ slug: 'results', subject: 'Results', html: '<p>x</p>', status: 'sent' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const id = Number(broadcast.id);
    await sql`
      insert into broadcast_recipients (broadcast_id, subscriber_id, status, sent_at)
      select ${id}, s, 'sent', now() - interval '10 days'
      from unnest(${`{${[bought, late, before, quit].join(',')}}`}::bigint[]) s`.execute(db);
    await sql`update list_subscribers set status = 'unsubscribed',
      unsubscribed_at = now() - interval '9 days' where id = ${quit}`.execute(db);
    await sql`
      insert into orders (provider, session_id, email, name, amount_total, currency, status, paid_at)
      values
        ('stripe', 'cs_res_1', 'RES1@example.com', 'A', 2900, 'usd', 'paid', now() - interval '8 days'),
        ('stripe', 'cs_res_2', 'res1@example.com', 'A', 1000, 'usd', 'refunded', now() - interval '8 days'),
        ('stripe', 'cs_res_3', 'res2@example.com', 'B', 2900, 'usd', 'paid', now() - interval '2 days'),
        ('stripe', 'cs_res_4', 'res3@example.com', 'C', 2900, 'usd', 'paid', now() - interval '11 days'),
        ('stripe', 'cs_res_5', 'stranger@example.com', 'D', 2900, 'usd', 'paid', now() - interval '9 days')`.execute(
      db,
    );
    expect(await get(id)).toMatchObject({
      recipients: 4,
      sent: 4,
      unsubscribed: 1,
      purchases: 1,
      revenue: 2900,
    });
  });
});
