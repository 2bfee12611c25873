import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { auditPath, type AuditPage } from '../../shared/admin/audit-api';
import type {
  DeliveryPage,
  RecordDeliveries,
  ResentDelivery,
} from '../../shared/mail/delivery-api';
import { eventually } from '../../../tests/support/eventually';
import { signIn } from '../../../tests/support/sign-in';
import { startSmtpSink, type SmtpSink } from '../../../tests/support/smtp-sink';
import { buildTestApp } from '../../../tests/support/test-app';
import { testConfig } from '../../../tests/support/test-config';
import { describeEachDatabase } from '../../../tests/support/test-database';

const ADMIN = 'owner@example.com';

describeEachDatabase('admin delivery routes', (use) => {
  let sink: SmtpSink;
  let app: FastifyInstance;
  let cookie: string;

  beforeAll(async () => {
    sink = await startSmtpSink();
    app = await buildTestApp(use(), {
      config: await testConfig({
        SMTP_URL: sink.url,
        OWNER_EMAIL: ADMIN,
        MAIL_RETRY_DELAYS: '3600',
        FORM_RATE_LIMIT: '1000',
      }),
    });
    cookie = await signIn(app, sink, ADMIN);
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await sink?.close();
  });
  beforeEach(async () => {
    await use().db.deleteFrom('mail_deliveries').execute();
    sink.rejectAll(false);
  });

  const get = (url: string) =>
    app.inject({ method: 'GET', url, headers: { cookie, origin: app.config.publicUrl } });
  const post = (url: string, origin = app.config.publicUrl) =>
    app.inject({ method: 'POST', url, headers: { cookie, origin }, payload: {} });

  async function submit(email: string) {
    const response = await app.inject({
      method: 'POST',
      url: '/api/forms/refund',
      payload: { name: 'Ada', email, message: 'Refund please' },
    });
    expect(response.json()).toMatchObject({ status: 'success' });
    // The worker sends it after the answer: wait until its attempt is recorded.
    await eventually(async () => {
      const delivery = await use()
        .db.selectFrom('mail_deliveries')
        .select(['status', 'last_error'])
        .where('reply_to', '=', email)
        .orderBy('id', 'desc')
        .executeTakeFirst();
      return delivery && (delivery.status !== 'pending' || delivery.last_error) ? true : undefined;
    });
  }

  it('lists deliveries newest first with each state, filters by state and pages', async () => {
    await submit('sent@example.com');
    sink.rejectAll(true);
    await submit('retrying@example.com');

    const all = (await get('/api/admin/deliveries')).json() as DeliveryPage;
    expect(all.counts).toEqual({ sending: 0, retrying: 1, sent: 1, failed: 0 });
    expect(all.count).toBe(2);
    expect(all.entries.map((entry) => entry.state)).toEqual(['retrying', 'sent']);
    const [retrying, sent] = all.entries;
    expect(retrying).toMatchObject({
      sourceTable: 'refund_inquiries',
      recipient: ADMIN,
      subject: '[Soul Reset Bundle] NEW REFUND REQUEST',
      attempts: 1,
      sentAt: null,
    });
    expect(retrying!.lastError).toMatch(/550/);
    expect(new Date(retrying!.nextAttemptAt!).getTime()).toBeGreaterThan(Date.now() + 3_000_000);
    expect(sent).toMatchObject({ state: 'sent', nextAttemptAt: null, lastError: null });
    expect(sent!.sentAt).not.toBeNull();

    const onlySent = (await get('/api/admin/deliveries?state=sent')).json() as DeliveryPage;
    expect(onlySent.count).toBe(1);
    expect(onlySent.entries.map((entry) => entry.state)).toEqual(['sent']);
    const second = (await get('/api/admin/deliveries?page=1')).json() as DeliveryPage;
    expect(second).toMatchObject({ page: 1, pageSize: 25, count: 2, entries: [] });

    // The queue at a glance: one email waiting, just queued, so not late...
    expect(all.queue).toMatchObject({ pending: 1, late: false });
    expect(all.queue.oldestPendingSeconds).toBeLessThan(60);
    // ...until it has waited past MAIL_LATE_SECONDS; the admin's notice reads this.
    await sql`
      update mail_deliveries set created_at = now() - interval '10 minutes'
      where reply_to = 'retrying@example.com'`.execute(use().db);
    const late = (await get('/api/admin/deliveries')).json() as DeliveryPage;
    expect(late.queue).toMatchObject({ pending: 1, late: true });
    expect(late.queue.oldestPendingSeconds).toBeGreaterThanOrEqual(599);

    expect((await get('/api/admin/deliveries?state=lost')).statusCode).toBe(400);
    expect((await get('/api/admin/deliveries?page=-1')).statusCode).toBe(400);
  });

  it("answers each record's latest delivery; resending a waiting one sends it now, once", async () => {
    sink.rejectAll(true);
    await submit('resend@example.com');
    const record = await use()
      .db.selectFrom('refund_inquiries')
      .select('id')
      .where('email', '=', 'resend@example.com')
      .executeTakeFirstOrThrow();
    const before = (
      await get(`/api/admin/deliveries/records/refund_inquiries?ids=${record.id},999999`)
    ).json() as RecordDeliveries;
    expect(Object.keys(before.deliveries)).toEqual([String(record.id)]);
    const first = before.deliveries[String(record.id)]!;
    expect(first.state).toBe('retrying');

    sink.rejectAll(false);
    const resent = await post(`/api/admin/deliveries/${first.id}/resend`);
    expect(resent.statusCode).toBe(201);
    const mail = await sink.waitFor(
      (received) => received.headers['reply-to'] === 'resend@example.com',
    );
    expect(mail.subject).toBe('[Soul Reset Bundle] NEW REFUND REQUEST');

    await expect
      .poll(async () => {
        const after = (
          await get(`/api/admin/deliveries/records/refund_inquiries?ids=${record.id}`)
        ).json() as RecordDeliveries;
        return after.deliveries[String(record.id)]?.state;
      })
      .toBe('sent');
    const row = await use()
      .db.selectFrom('refund_inquiries')
      .select('email_sent')
      .where('id', '=', record.id)
      .executeTakeFirstOrThrow();
    expect(row.email_sent).toBe(true);
    // The waiting delivery itself was sent: no second row, so no second email later.
    const log = (await get('/api/admin/deliveries')).json() as DeliveryPage;
    expect(log.entries.map((entry) => [entry.id, entry.state])).toEqual([[first.id, 'sent']]);
  });

  it('resends a sent email as a new delivery and keeps the old one in the log', async () => {
    await submit('again@example.com');
    const [sent] = ((await get('/api/admin/deliveries')).json() as DeliveryPage).entries;
    expect(sent!.state).toBe('sent');

    const resent = await post(`/api/admin/deliveries/${sent!.id}/resend`);
    expect(resent.statusCode).toBe(201);
    await expect
      .poll(() => sink.messages.filter((m) => m.headers['reply-to'] === 'again@example.com').length)
      .toBe(2);
    await expect
      .poll(async () => {
        const log = (await get('/api/admin/deliveries')).json() as DeliveryPage;
        return log.entries.map((entry) => entry.state);
      })
      .toEqual(['sent', 'sent']);
    const [entry] = ((await get(auditPath())).json() as AuditPage).rows;
    expect(entry).toMatchObject({
      action: 'resend',
      adminEmail: ADMIN,
      tableName: 'mail_deliveries',
      rowIds: [(resent.json() as ResentDelivery).delivery.id],
    });
  });

  it('refuses bad input, unknown deliveries and writes from another origin', async () => {
    expect((await get('/api/admin/deliveries/records/auth_user?ids=1')).statusCode).toBe(404);
    expect(
      (await get('/api/admin/deliveries/records/refund_inquiries?ids=1;drop')).statusCode,
    ).toBe(400);
    expect((await post('/api/admin/deliveries/424242/resend')).statusCode).toBe(404);
    expect((await post('/api/admin/deliveries/abc/resend')).statusCode).toBe(400);
    expect((await post('/api/admin/deliveries/1/resend', 'https://evil.example')).statusCode).toBe(
      403,
    );
    const anonymous = await app.inject({ method: 'GET', url: '/api/admin/deliveries' });
    expect(anonymous.statusCode).toBe(401);
  });
});
