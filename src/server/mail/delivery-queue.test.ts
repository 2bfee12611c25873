import type { FastifyInstance } from 'fastify';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { sql } from 'kysely';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { startMailApiServer } from '../../../tests/support/mail-api-server';
import { startSmtpSink, type SmtpSink } from '../../../tests/support/smtp-sink';
import { eventually } from '../../../tests/support/eventually';
import { buildTestApp } from '../../../tests/support/test-app';
import { testConfig } from '../../../tests/support/test-config';
import { describeEachDatabase, type TestDatabase } from '../../../tests/support/test-database';

const OWNER = 'owner@soulreset.test';
let counter = 0;
const freshEmail = (label: string) => `${label}-${Date.now()}-${++counter}@example.com`;

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

function order(app: FastifyInstance, email: string) {
  return app.inject({
    method: 'POST',
    url: '/api/forms/order',
    payload: { name: 'Ada', email, message: 'Hello' },
  });
}

/** The one form whose request sends the email itself before answering. */
function freeGuide(app: FastifyInstance, email: string) {
  return app.inject({
    method: 'POST',
    url: '/api/forms/free-guide',
    payload: { name: 'Ada', email },
  });
}

async function appWith(database: TestDatabase, env: NodeJS.ProcessEnv) {
  const app = await buildTestApp(database, {
    config: await testConfig({
      OWNER_EMAIL: OWNER,
      FORM_RATE_LIMIT: '10000',
      MAIL_TIMEOUT_MS: '1000',
      MAIL_RETRY_DELAYS: '0.2,0.2',
      ...env,
    }),
  });
  cleanups.push(() => app.close());
  return app;
}

async function sinkForTest() {
  const sink = await startSmtpSink();
  cleanups.push(() => sink.close());
  return sink;
}

async function recordAndDelivery(
  database: TestDatabase,
  email: string,
  table: 'form_submissions' | 'free_product_gift_submissions' = 'form_submissions',
) {
  const record = await database.db
    .selectFrom(table)
    .selectAll()
    .where('email', '=', email)
    .executeTakeFirstOrThrow();
  const delivery = await database.db
    .selectFrom('mail_deliveries')
    .selectAll()
    .where('source_table', '=', table)
    .where('source_id', '=', record.id)
    .executeTakeFirstOrThrow();
  return { record, delivery };
}

/** A TCP server that accepts connections and never answers: an SMTP server that hangs. */
async function hangingSmtpServer(): Promise<number> {
  const hanging: Server = createServer(() => {});
  await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        hanging.close(() => resolve());
      }),
  );
  return (hanging.address() as AddressInfo).port;
}

const mailsTo = (sink: SmtpSink, email: string) =>
  sink.messages.filter((mail) => mail.headers['reply-to'] === email);

describeEachDatabase('mail delivery queue', (use) => {
  beforeEach(async () => {
    // Every test starts with an empty queue: no test's leftovers reach another's sink.
    await use().db.deleteFrom('mail_deliveries').execute();
  });

  it('answers an order at once, and the worker sends its email moments later, once', async () => {
    const sink = await sinkForTest();
    const app = await appWith(use(), { SMTP_URL: sink.url, MAIL_RETRY_DELAYS: '60' });
    const email = freshEmail('queued');

    expect((await order(app, email)).json()).toEqual({ status: 'success', emailSent: false });
    const received = await sink.waitFor((mail) => mail.headers['reply-to'] === email, 5_000);
    expect(received.subject).toBe('[Soul Reset Bundle] NEW ORDER REQUEST');
    const after = await eventually(async () => {
      const state = await recordAndDelivery(use(), email);
      return state.record.email_sent ? state : undefined;
    });
    expect(after.record.email_sent_at).toBeInstanceOf(Date);
    expect(after.delivery).toMatchObject({ status: 'sent', attempts: 1, locked_until: null });
    // The duplicate rule now sees the delivered email.
    expect((await order(app, email)).json()).toEqual({ status: 'duplicate' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(mailsTo(sink, email)).toHaveLength(1);
  });

  it('answers an order without waiting for a mail server that hangs', async () => {
    const port = await hangingSmtpServer();
    const app = await appWith(use(), {
      SMTP_URL: `smtp://127.0.0.1:${port}`,
      MAIL_TIMEOUT_MS: '2000',
      MAIL_RETRY_DELAYS: '60',
    });
    const email = freshEmail('hang-order');

    const started = performance.now();
    const response = await order(app, email);
    const elapsed = performance.now() - started;

    expect(response.json()).toEqual({ status: 'success', emailSent: false });
    expect(elapsed).toBeLessThan(1_000);
    const { delivery } = await eventually(async () => {
      const state = await recordAndDelivery(use(), email);
      return state.delivery.last_error ? state : undefined;
    }, 8_000);
    expect(delivery).toMatchObject({ status: 'pending', attempts: 1 });
    expect(delivery.last_error).toMatch(/2000 ms|timeout/i);
  });

  it('queues the email with the record, and a first attempt refused by SMTP is retried and delivered', async () => {
    const sink = await sinkForTest();
    sink.rejectAll(true);
    const app = await appWith(use(), { SMTP_URL: sink.url, MAIL_RETRY_DELAYS: '1,1' });
    const email = freshEmail('retried');

    const response = await order(app, email);
    expect(response.json()).toEqual({ status: 'success', emailSent: false });
    const first = await eventually(async () => {
      const state = await recordAndDelivery(use(), email);
      return state.delivery.last_error ? state : undefined;
    });
    expect(first.record).toMatchObject({ email_sent: false, email_sent_at: null });
    expect(first.delivery).toMatchObject({
      status: 'pending',
      attempts: 1,
      recipient: OWNER,
      reply_to: email,
      subject: '[Soul Reset Bundle] NEW ORDER REQUEST',
      locked_until: null,
      sent_at: null,
    });
    expect(first.delivery.last_error).toMatch(/550/);
    expect(first.delivery.next_attempt_at.getTime()).toBeGreaterThan(Date.now());

    sink.rejectAll(false);
    const received = await sink.waitFor((mail) => mail.headers['reply-to'] === email);
    expect(received.subject).toBe('[Soul Reset Bundle] NEW ORDER REQUEST');
    const after = await eventually(async () => {
      const state = await recordAndDelivery(use(), email);
      return state.record.email_sent ? state : undefined;
    });
    expect(after.record.email_sent_at).toBeInstanceOf(Date);
    expect(after.delivery).toMatchObject({ status: 'sent', attempts: 2, last_error: null });
    expect(after.delivery.sent_at).toBeInstanceOf(Date);
    expect((await order(app, email)).json()).toEqual({ status: 'duplicate' });
    expect(mailsTo(sink, email)).toHaveLength(1);
  });

  it('keeps sending while one email hangs: a slow message holds up only its own row', async () => {
    const sink = await sinkForTest();
    const release = sink.hold((mail) => mail.headers['reply-to']?.startsWith('slow-') ?? false);
    const app = await appWith(use(), {
      SMTP_URL: sink.url,
      MAIL_TIMEOUT_MS: '4000',
      MAIL_RETRY_DELAYS: '60',
    });
    const slow = freshEmail('slow');
    await order(app, slow);
    // More than the worker sends at once, so later ones need the slots the first ones free.
    const fast = Array.from({ length: 30 }, (_, i) => freshEmail(`fast-${i}`));
    for (const email of fast) await order(app, email);

    const started = performance.now();
    await eventually(async () =>
      fast.every((email) => mailsTo(sink, email).length === 1) ? true : undefined,
    );
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(mailsTo(sink, slow)).toHaveLength(0);
    release();
    await sink.waitFor((mail) => mail.headers['reply-to'] === slow);
  });

  it('gives back the claims it had not started when it stops, and keeps those awaiting a reply', async () => {
    const sink = await sinkForTest();
    const release = sink.hold(() => true);
    cleanups.push(async () => release());
    const app = await appWith(use(), {
      SMTP_URL: sink.url,
      MAIL_TIMEOUT_MS: '1500',
      MAIL_RETRY_DELAYS: '60',
    });
    const tag = `held-${Date.now()}`;
    await sql`
      insert into mail_deliveries (source_table, source_id, recipient, reply_to, subject, html, text)
      select 'refund_inquiries', g, ${OWNER}, ${tag} || '-' || g || '@example.com', ${tag}, '<p>Q</p>', 'Q'
      from generate_series(1, 50) as g`.execute(use().db);
    app.deliveryWorker.wake();
    // 10 sending (held by the mail server, one per pooled connection) and 10 claimed, waiting
    // for a free slot.
    await eventually(async () => {
      const { rows } = await sql<{ n: number }>`
        select count(*)::int as n from mail_deliveries
        where subject = ${tag} and locked_until is not null`.execute(use().db);
      return rows[0]!.n === 20 ? true : undefined;
    });

    const started = performance.now();
    await app.close();
    expect(performance.now() - started).toBeLessThan(1_500 + 1_000);
    const { rows } = await sql<{
      attempts: number;
      waiting: boolean;
      claimed: boolean;
      n: number;
    }>`
      select attempts, locked_until is null and last_error is null as waiting,
        locked_until > now() and last_error is null as claimed, count(*)::int as n
      from mail_deliveries where subject = ${tag}
      group by 1, 2, 3 order by 1, 2, 3`.execute(use().db);
    expect(rows).toEqual([
      // Never claimed, and the ten given back: due now, with no attempt counted.
      { attempts: 0, waiting: true, claimed: null, n: 40 },
      // The sends in flight handed over their messages and wait for the replies: the stop
      // leaves them claimed (sent twice if given back while the server delivers them).
      { attempts: 1, waiting: false, claimed: true, n: 10 },
    ]);
  });

  it('marks a delivery failed after its last retry, and keeps it with the error', async () => {
    const sink = await sinkForTest();
    sink.rejectAll(true);
    const app = await appWith(use(), { SMTP_URL: sink.url });
    const email = freshEmail('failed');

    expect((await order(app, email)).json()).toEqual({ status: 'success', emailSent: false });

    const { delivery, record } = await eventually(async () => {
      const state = await recordAndDelivery(use(), email);
      return state.delivery.status === 'failed' ? state : undefined;
    });
    // The first attempt and one per retry delay.
    expect(delivery).toMatchObject({ attempts: 3, locked_until: null, sent_at: null });
    expect(delivery.last_error).toMatch(/550/);
    expect(record.email_sent).toBe(false);
  });

  it('sends a delivered email once: the worker never sends what the request already sent', async () => {
    const sink = await sinkForTest();
    const app = await appWith(use(), { SMTP_URL: sink.url });
    const email = freshEmail('once');

    expect((await freeGuide(app, email)).json()).toMatchObject({
      status: 'success',
      emailSent: true,
    });
    const { delivery, record } = await recordAndDelivery(
      use(),
      email,
      'free_product_gift_submissions',
    );
    expect(delivery).toMatchObject({ status: 'sent', attempts: 1, locked_until: null });
    expect(record.email_sent).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(mailsTo(sink, email)).toHaveLength(1);
  });

  it('does not hold a free-guide request longer than MAIL_TIMEOUT_MS when the SMTP server hangs', async () => {
    const port = await hangingSmtpServer();
    const app = await appWith(use(), {
      SMTP_URL: `smtp://127.0.0.1:${port}`,
      MAIL_TIMEOUT_MS: '500',
      MAIL_RETRY_DELAYS: '60',
    });
    const email = freshEmail('hang');

    const started = performance.now();
    const response = await freeGuide(app, email);
    const elapsed = performance.now() - started;

    expect(response.json()).toMatchObject({ status: 'success', emailSent: false });
    expect(elapsed).toBeLessThan(500 + 1_000);
    const { delivery } = await recordAndDelivery(use(), email, 'free_product_gift_submissions');
    expect(delivery).toMatchObject({ status: 'pending', attempts: 1 });
    expect(delivery.last_error).toMatch(/500 ms|timeout/i);
  });

  it('answers a free guide within MAIL_TIMEOUT_MS while the server holds back its reply, then records it sent once', async () => {
    const sink = await sinkForTest();
    const app = await appWith(use(), { SMTP_URL: sink.url, MAIL_TIMEOUT_MS: '500' });
    const email = freshEmail('late-reply');
    sink.delayEach(1_500);

    const started = performance.now();
    const response = await freeGuide(app, email);
    const elapsed = performance.now() - started;

    expect(response.json()).toMatchObject({ status: 'success', emailSent: false });
    expect(elapsed).toBeLessThan(500 + 1_000);
    const { delivery } = await eventually(async () => {
      const state = await recordAndDelivery(use(), email, 'free_product_gift_submissions');
      return state.delivery.status === 'sent' ? state : undefined;
    });
    expect(delivery).toMatchObject({ attempts: 1, last_error: null });
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(mailsTo(sink, email)).toHaveLength(1);
  });

  it('extends the claim of a free guide whose reply is still awaited after the answer', async () => {
    const sink = await sinkForTest();
    const email = freshEmail('held-reply');
    const release = sink.hold((mail) => mail.headers['reply-to'] === email);
    cleanups.push(async () => release());
    // A 6 s claim (2 × MAIL_TIMEOUT_MS + 5 s), then 11 s: the 5 s wait for the reply and 6 s.
    const app = await appWith(use(), { SMTP_URL: sink.url, MAIL_TIMEOUT_MS: '500' });

    expect((await freeGuide(app, email)).json()).toMatchObject({ emailSent: false });

    await eventually(async () => {
      const { rows } = await sql<{ extended: boolean }>`
        select locked_until > now() + interval '8 seconds' as extended from mail_deliveries
        where reply_to = ${email}`.execute(use().db);
      return rows[0]?.extended ? true : undefined;
    });
    release();
    const { delivery } = await eventually(async () => {
      const state = await recordAndDelivery(use(), email, 'free_product_gift_submissions');
      return state.delivery.status === 'sent' ? state : undefined;
    });
    expect(delivery).toMatchObject({ attempts: 1, locked_until: null });
    expect(mailsTo(sink, email)).toHaveLength(1);
  });

  it('retries through the HTTP run API transport the same way', async () => {
    const api = await startMailApiServer();
    cleanups.push(() => api.close());
    api.reply({ status: 503, json: { error: 'Service unavailable' } });
    const app = await appWith(use(), {
      MAIL_API_URL: api.url,
      MAIL_API_KEY: 'test-key',
      MAIL_MODEL: 'send-email',
      MAIL_PROJECT_ID: 'project',
      MAIL_RETRY_DELAYS: '1,1',
    });
    const email = freshEmail('api');

    expect((await order(app, email)).json()).toEqual({ status: 'success', emailSent: false });
    const first = await eventually(async () => {
      const state = await recordAndDelivery(use(), email);
      return state.delivery.last_error ? state : undefined;
    });
    expect(first.delivery.last_error).toBe('Mail API answered 503: Service unavailable');
    expect(first.delivery.attempts).toBe(1);

    api.reply({ status: 200, json: { send_email_status: 'success' } });
    const after = await eventually(async () => {
      const state = await recordAndDelivery(use(), email);
      return state.record.email_sent ? state : undefined;
    });
    expect(after.delivery).toMatchObject({ status: 'sent', attempts: 2 });
    expect(api.requests).toHaveLength(2);
  });
});
