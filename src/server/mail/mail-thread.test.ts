// Mail composed and sent in the mail thread, as the server runs it (mail-thread.ts).
import Fastify from 'fastify';
import { sql } from 'kysely';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { startSinkProcess } from '../../../bench/lib/smtp-sink-process';
import { eventually } from '../../../tests/support/eventually';
import { startSmtpSink, type SmtpSink } from '../../../tests/support/smtp-sink';
import { buildTestApp } from '../../../tests/support/test-app';
import { testConfig } from '../../../tests/support/test-config';
import { describeEachDatabase, type TestDatabase } from '../../../tests/support/test-database';
import { startMailThread } from './mail-thread';

const { log: silent } = Fastify({ logger: { level: 'silent' } });

const OWNER = 'owner@soulreset.test';
const root = fileURLToPath(new URL('../../..', import.meta.url));

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function queue(database: TestDatabase, tag: string, count: number) {
  await sql`
    insert into mail_deliveries (source_table, source_id, recipient, reply_to, subject, html, text)
    select 'refund_inquiries', g, ${OWNER}, ${tag} || '-' || g || '@example.com', ${tag}, '<p>Q</p>', 'Q'
    from generate_series(1, ${count}::int) as g`.execute(database.db);
}

async function sentCount(database: TestDatabase, tag: string): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    select count(*)::int as n from mail_deliveries
    where subject = ${tag} and status = 'sent'`.execute(database.db);
  return rows[0]!.n;
}

async function threadApp(
  database: TestDatabase,
  env: NodeJS.ProcessEnv,
  lines: Record<string, unknown>[] = [],
) {
  const app = await buildTestApp(database, {
    config: await testConfig({ OWNER_EMAIL: OWNER, LOG_LEVEL: 'info', ...env }),
    mailThread: true,
    log: {
      format: 'json',
      stream: { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) },
    },
  });
  cleanups.push(() => app.close());
  return app;
}

async function sinkForTest(): Promise<SmtpSink> {
  const sink = await startSmtpSink();
  cleanups.push(() => sink.close());
  return sink;
}

describeEachDatabase('mail thread', (use) => {
  beforeEach(async () => {
    await use().db.deleteFrom('mail_deliveries').execute();
    await use().db.deleteFrom('broadcasts').execute();
  });

  it('runs a thread only while there is mail to send, started by due work without a wake', async () => {
    const sink = await sinkForTest();
    const config = await testConfig({
      OWNER_EMAIL: OWNER,
      SMTP_URL: sink.url,
      MAIL_RETRY_DELAYS: '0.2',
    });
    const thread = startMailThread({ config, database: use(), log: silent, idleMs: 500 });
    cleanups.push(() => thread.close());
    thread.job('deliveries').start();
    await new Promise((resolve) => setTimeout(resolve, 500));
    // Nothing to send: no thread, no second heap.
    expect(thread.running()).toBe(false);

    for (const round of [1, 2]) {
      const tag = `lazy-${round}-${Date.now()}`;
      // Queued without a wake (as by another instance): the poll finds it due.
      await queue(use(), tag, 3);
      await eventually(async () => ((await sentCount(use(), tag)) === 3 ? true : undefined));
      // Idle again: the thread ends (its pool and mailer closed), and a new one starts next time.
      await eventually(async () => (thread.running() ? undefined : true), 10_000);
    }
    expect(sink.messages).toHaveLength(6);
  }, 30_000);

  it('sends queued email while the thread that answers requests is busy', async () => {
    // The mail server in a process of its own: this thread is about to be blocked.
    const sink = await startSinkProcess(root);
    cleanups.push(() => sink.close());
    const app = await threadApp(use(), { SMTP_URL: sink.url, MAIL_RETRY_DELAYS: '60' });
    expect(app.mailThread).toBeDefined();
    const warm = `warm-${Date.now()}`;
    await queue(use(), warm, 1);
    app.deliveryWorker.wake();
    await eventually(async () => ((await sentCount(use(), warm)) === 1 ? true : undefined));

    const tag = `busy-${Date.now()}`;
    await queue(use(), tag, 5);
    app.deliveryWorker.wake();
    // Four seconds of work on this thread: no timer, socket or query of this thread runs.
    const until = Date.now() + 4_000;
    while (Date.now() < until) {
      // busy
    }
    // The first thing this thread does afterwards: the mail server already has all five.
    expect(await sink.count()).toBe(6);
    await eventually(async () => ((await sentCount(use(), tag)) === 5 ? true : undefined));
  }, 30_000);

  it("answers the free guide with the thread's send result, and logs through the app's logger", async () => {
    const sink = await sinkForTest();
    const lines: Record<string, unknown>[] = [];
    const app = await threadApp(use(), { SMTP_URL: sink.url, MAIL_RETRY_DELAYS: '60' }, lines);
    const submit = (email: string) =>
      app.inject({
        method: 'POST',
        url: '/api/forms/free-guide',
        payload: { name: 'Ada', email },
      });

    sink.rejectAll(true);
    const refused = await submit('refused@example.com');
    expect(refused.json()).toMatchObject({ status: 'success', emailSent: false });
    // The mailer's line, written in the mail thread, came out of the app's logger.
    await eventually(async () =>
      lines.find((line) => String(line.msg).startsWith('Mail was not sent')),
    );
    const refusal = lines.find((line) => String(line.msg).startsWith('Mail was not sent'))!;
    expect(refusal).toMatchObject({ level: 40, transport: 'smtp' });

    sink.rejectAll(false);
    const accepted = await submit('accepted@example.com');
    expect(accepted.json()).toMatchObject({ status: 'success', emailSent: true });
    const mail = await sink.waitFor(
      (received) => received.headers['reply-to'] === 'accepted@example.com',
    );
    expect(mail.envelopeTo).toEqual([OWNER]);
    const record = await use()
      .db.selectFrom('free_product_gift_submissions')
      .select(['email_sent'])
      .where('email', '=', 'accepted@example.com')
      .executeTakeFirstOrThrow();
    expect(record.email_sent).toBe(true);
  }, 30_000);

  it("sends a broadcast's messages from the mail thread, each once", async () => {
    const sink = await sinkForTest();
    const { db } = use();
    await sql`
      insert into store_versions (version, content)
      select coalesce(max(version), 0) + 1,
        ${JSON.stringify({ sender: { name: 'Maya Stone', postalAddress: '12 Garden Lane' } })}::jsonb
      from store_versions`.execute(db);
    const app = await threadApp(use(), { SMTP_URL: sink.url, MAIL_RATE_PER_SECOND: '1000' });
    expect(app.listSender).toBe(app.mailJobs.broadcasts);
    const tag = `thread${Date.now()}-`;
    const { rows: subscribers } = await sql<{ id: number }>`
      insert into list_subscribers (email, name, status, source, confirmed_at)
      select ${tag} || g || '@example.com', 'Name ' || g, 'confirmed', 'import', now()
      from generate_series(1, 12) g
      returning id`.execute(db);
    const broadcast = await db
      .insertInto('broadcasts')
      .values({
        slug: tag,
        subject: `News ${tag}`,
        html: '<p>Hello</p>',
        status: 'sending',
        started_at: new Date(),
        audience_done_at: new Date(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('broadcast_recipients')
      .values(subscribers.map(({ id }) => ({ broadcast_id: broadcast.id, subscriber_id: id })))
      .execute();
    app.listSender.wake();

    await eventually(async () => {
      const sent = await db
        .selectFrom('broadcast_recipients')
        .select(sql<number>`count(*)::int`.as('n'))
        .where('broadcast_id', '=', broadcast.id)
        .where('status', '=', 'sent')
        .executeTakeFirstOrThrow();
      return sent.n === 12 ? true : undefined;
    }, 20_000);
    const addresses = sink.messages
      .filter((mail) => mail.subject === `News ${tag}`)
      .flatMap((mail) => mail.envelopeTo);
    expect(addresses).toHaveLength(12);
    expect(new Set(addresses).size).toBe(12);
  }, 30_000);

  it('gives back the claims it had not started when the app closes, and keeps those awaiting a reply', async () => {
    const sink = await sinkForTest();
    const release = sink.hold(() => true);
    cleanups.push(async () => release());
    const app = await threadApp(use(), {
      SMTP_URL: sink.url,
      MAIL_TIMEOUT_MS: '1500',
      MAIL_RETRY_DELAYS: '60',
    });
    const tag = `held-${Date.now()}`;
    await queue(use(), tag, 50);
    app.deliveryWorker.wake();
    await eventually(async () => {
      const { rows } = await sql<{ n: number }>`
        select count(*)::int as n from mail_deliveries
        where subject = ${tag} and locked_until is not null`.execute(use().db);
      return rows[0]!.n === 20 ? true : undefined;
    });

    await app.close();
    const { rows } = await sql<{ attempts: number; waiting: boolean; claimed: boolean; n: number }>`
      select attempts, locked_until is null and last_error is null as waiting,
        locked_until > now() and last_error is null as claimed, count(*)::int as n
      from mail_deliveries where subject = ${tag}
      group by 1, 2, 3 order by 1, 2, 3`.execute(use().db);
    expect(rows).toEqual([
      { attempts: 0, waiting: true, claimed: null, n: 40 },
      { attempts: 1, waiting: false, claimed: true, n: 10 },
    ]);
  }, 30_000);
});
