import { sql } from 'kysely';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { eventually } from '../../../tests/support/eventually';
import { startSmtpSink, type SmtpSink } from '../../../tests/support/smtp-sink';
import { buildTestApp } from '../../../tests/support/test-app';
import { testConfig } from '../../../tests/support/test-config';
import { describeEachDatabase, type TestDatabase } from '../../../tests/support/test-database';

const OWNER = 'owner@soulreset.test';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function queued(database: TestDatabase, tag: string, count: number) {
  await sql`
    insert into mail_deliveries (source_table, source_id, recipient, reply_to, subject, html, text)
    select 'refund_inquiries', g, ${OWNER}, ${tag} || '-' || g || '@example.com', ${tag}, '<p>Q</p>', 'Q'
    from generate_series(1, ${count}::int) as g`.execute(database.db);
}

async function states(database: TestDatabase, tag: string) {
  const { rows } = await sql<{ status: string; n: number }>`
    select status, count(*)::int as n from mail_deliveries where subject = ${tag}
    group by 1 order by 1`.execute(database.db);
  return Object.fromEntries(rows.map((row) => [row.status, row.n]));
}

/** How many times the sink received each email of the burst, by its Reply-To. */
function receivedCounts(sink: SmtpSink, tag: string) {
  const counts = new Map<string, number>();
  for (const mail of sink.messages) {
    const replyTo = mail.headers['reply-to'] ?? '';
    if (replyTo.startsWith(`${tag}-`)) counts.set(replyTo, (counts.get(replyTo) ?? 0) + 1);
  }
  return counts;
}

async function appWith(database: TestDatabase, sink: SmtpSink, env: NodeJS.ProcessEnv) {
  const app = await buildTestApp(database, {
    config: await testConfig({ OWNER_EMAIL: OWNER, SMTP_URL: sink.url, ...env }),
  });
  cleanups.push(() => app.close());
  return app;
}

async function sinkForTest() {
  const sink = await startSmtpSink();
  cleanups.push(() => sink.close());
  return sink;
}

/** The pool's connections (smtp-transport.ts). */
const POOL = 10;

describeEachDatabase('mail delivery after a burst of send timeouts', (use) => {
  beforeEach(async () => {
    await use().db.deleteFrom('mail_deliveries').execute();
  });

  it('keeps claiming while sends hang, and after the mail server recovers delivers every email once', async () => {
    const sink = await sinkForTest();
    const app = await appWith(use(), sink, {
      // Long enough that a send to the recovered (local) server never nears it: one given up
      // just as the server accepted it would be sent again, as SMTP allows no better.
      MAIL_TIMEOUT_MS: '1000',
      MAIL_RETRY_DELAYS: Array.from({ length: 20 }, () => '0.2').join(','),
    });
    const tag = `burst-${Date.now()}`;
    // Unanswered before it has the message, a send is given up at MAIL_TIMEOUT_MS (one that
    // handed over the whole message waits longer for the reply: the next tests).
    const recover = sink.stall('mail from');
    await queued(use(), tag, 120);
    app.deliveryWorker.wake();
    // Every send hangs and times out; three pools' worth reaching the server means
    // the timed-out sends gave back their worker slots and connections, and the worker went on
    // claiming (new rows and due retries) while sends hung.
    await eventually(async () => (sink.stalled() >= 3 * POOL ? true : undefined), 15_000);
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from mail_deliveries
      where subject = ${tag} and last_error like '%1000 ms%'`.execute(use().db);
    expect(rows[0]!.n).toBeGreaterThanOrEqual(2 * POOL);
    expect(await states(use(), tag)).toEqual({ pending: 120 });

    // The server comes back (the hung connections dropped unanswered, as a restart drops them).
    recover();
    const started = performance.now();
    await eventually(
      async () => ((await states(use(), tag)).sent === 120 ? true : undefined),
      20_000,
    );
    const elapsed = performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const counts = receivedCounts(sink, tag);
    expect(counts.size).toBe(120);
    // None twice: a send given up at its timeout is taken off the pool, not delivered later
    // behind the retry that then sends it again.
    const twice = [...counts].filter(([, n]) => n !== 1).map(([replyTo]) => replyTo);
    const { rows: twiceRows } = await sql`
      select reply_to, attempts, last_error from mail_deliveries
      where subject = ${tag} and reply_to = any(${twice})`.execute(use().db);
    expect(twiceRows).toEqual([]);
    // At the pool's pace (a local server: well under a second), not a poll or lease later.
    expect(elapsed).toBeLessThan(8_000);
  }, 60_000);

  it('records a message the server answers only after MAIL_TIMEOUT_MS as sent, and sends it once', async () => {
    const sink = await sinkForTest();
    const app = await appWith(use(), sink, {
      MAIL_TIMEOUT_MS: '500',
      MAIL_RETRY_DELAYS: '0.2,0.2,0.2',
    });
    const tag = `late-${Date.now()}`;
    // The server takes each message whole and answers its end 1.5 s later.
    sink.delayEach(1_500);
    await queued(use(), tag, 3);
    app.deliveryWorker.wake();

    await eventually(
      async () => ((await states(use(), tag)).sent === 3 ? true : undefined),
      15_000,
    );
    const { rows } = await sql<{ attempts: number; errors: number }>`
      select max(attempts)::int as attempts, count(last_error)::int as errors
      from mail_deliveries where subject = ${tag}`.execute(use().db);
    expect(rows[0]).toEqual({ attempts: 1, errors: 0 });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect([...receivedCounts(sink, tag).values()]).toEqual([1, 1, 1]);
  }, 30_000);

  it('keeps the claim of a send waiting for its reply beyond the lease, so no one else sends it', async () => {
    const sink = await sinkForTest();
    // A 7 s lease (leaseFor), renewed while the send waits up to 10 s for the reply.
    const app = await appWith(use(), sink, { MAIL_TIMEOUT_MS: '1000', MAIL_RETRY_DELAYS: '0.2' });
    const tag = `renewed-${Date.now()}`;
    const release = sink.hold(() => true);
    cleanups.push(async () => release());
    await queued(use(), tag, 1);
    app.deliveryWorker.wake();
    await eventually(async () => (sink.held() === 1 ? true : undefined));

    await new Promise((resolve) => setTimeout(resolve, 8_000));
    const { rows } = await sql<{ claimed: boolean }>`
      select locked_until > now() as claimed from mail_deliveries
      where subject = ${tag}`.execute(use().db);
    expect(rows).toEqual([{ claimed: true }]);
    release();
    await eventually(async () => ((await states(use(), tag)).sent === 1 ? true : undefined));
    expect([...receivedCounts(sink, tag).values()]).toEqual([1]);
  }, 30_000);

  it('goes on sending while a pool of sends waits for replies the server holds back', async () => {
    const sink = await sinkForTest();
    const app = await appWith(use(), sink, { MAIL_TIMEOUT_MS: '1000', MAIL_RETRY_DELAYS: '60' });
    const tag = `overdue-${Date.now()}`;
    const release = sink.hold(
      (mail) => mail.headers['reply-to']?.startsWith(`${tag}-held`) ?? false,
    );
    cleanups.push(async () => release());
    await sql`
      insert into mail_deliveries (source_table, source_id, recipient, reply_to, subject, html, text)
      select 'refund_inquiries', g, ${OWNER}, ${tag} || '-held-' || g || '@example.com', ${tag}, '<p>Q</p>', 'Q'
      from generate_series(1, ${POOL}::int) as g`.execute(use().db);
    app.deliveryWorker.wake();
    await eventually(async () => (sink.held() === POOL ? true : undefined));
    await queued(use(), tag, 30);
    app.deliveryWorker.wake();

    // Every slot holds a send waiting for its reply (up to 10 s): once they are overdue (after
    // MAIL_TIMEOUT_MS) the others go out on the spare connections, not when the wait ends.
    const started = performance.now();
    await eventually(
      async () => ((await states(use(), tag)).sent === 30 ? true : undefined),
      15_000,
    );
    expect(performance.now() - started).toBeLessThan(4_000);
    expect(sink.held()).toBe(POOL);
    release();
    await eventually(async () => ((await states(use(), tag)).sent === 40 ? true : undefined));
    expect([...receivedCounts(sink, tag).values()].every((n) => n === 1)).toBe(true);
  }, 30_000);

  it('sends at the pool pace through a slow mail server: no send times out waiting behind given-up ones', async () => {
    const sink = await sinkForTest();
    const app = await appWith(use(), sink, {
      MAIL_TIMEOUT_MS: '1000',
      MAIL_RETRY_DELAYS: '60',
    });
    const tag = `slow-${Date.now()}`;
    // Each message takes 0.6 of the timeout: one fits, two in a row on a connection do not.
    sink.delayEach(600);
    await queued(use(), tag, 100);
    const started = performance.now();
    app.deliveryWorker.wake();
    await eventually(
      async () => ((await states(use(), tag)).sent === 100 ? true : undefined),
      30_000,
    );
    const elapsed = performance.now() - started;
    const { rows } = await sql<{ attempts: number; errors: number }>`
      select max(attempts)::int as attempts, count(last_error)::int as errors
      from mail_deliveries where subject = ${tag}`.execute(use().db);
    expect(rows[0]).toEqual({ attempts: 1, errors: 0 });
    const counts = receivedCounts(sink, tag);
    expect(counts.size).toBe(100);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
    // 100 messages over 10 connections at 0.6 s each: about 6 s.
    expect(elapsed).toBeLessThan(12_000);
  }, 60_000);
});
