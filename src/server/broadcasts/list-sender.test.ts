import Fastify from 'fastify';
import { sql, type Kysely } from 'kysely';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { eventually } from '../../../tests/support/eventually';
import { startSmtpSink, type SmtpSink } from '../../../tests/support/smtp-sink';
import { testConfig } from '../../../tests/support/test-config';
import { describeEachDatabase } from '../../../tests/support/test-database';
import type { Config } from '../config/load-config';
import type { Database } from '../db/schema';
import { tokenHash } from '../http/tokens';
import { createDeliveryWorker } from '../mail/delivery-worker';
import { queueDelivery } from '../mail/delivery-store';
import { createMailer, type Mailer } from '../mail/mailer';
import { snapshotAudience } from './broadcast-lifecycle';
import { ensureRateWindows } from './list-rate';
import { createListSender, type ListSender } from './list-sender';
import { claimRecipients, claimStatement } from './recipient-store';

const { log } = Fastify({ logger: { level: 'silent' } });
const SENDER = { name: 'Maya Stone', postalAddress: '12 Garden Lane\nPortland, OR 97201' };

describeEachDatabase('list sender', (use) => {
  let sink: SmtpSink;
  let running: { sender: ListSender; mailer: Mailer }[] = [];
  let db: Kysely<Database>;

  beforeAll(async () => {
    sink = await startSmtpSink();
    db = use().db;
    await sql`
      insert into store_versions (version, content)
      values (1, ${JSON.stringify({ sender: SENDER })}::jsonb)`.execute(db);
  });
  afterEach(async () => {
    for (const { sender, mailer } of running) {
      await sender.stop();
      await mailer.close();
    }
    running = [];
    sink.rejectAll(false);
    sink.delayEach(0);
    await sql`update mail_rate_windows set used = 0`.execute(db);
  });
  afterAll(async () => {
    await sink?.close();
  });

  async function configWith(env: Record<string, string> = {}): Promise<Config> {
    return testConfig({
      SMTP_URL: sink.url,
      MAIL_RATE_PER_SECOND: '1000',
      MAIL_RETRY_DELAYS: '0.2,0.2',
      MAIL_TIMEOUT_MS: '3000',
      ...env,
    });
  }

  async function startSender(env: Record<string, string> = {}, mailer?: Mailer) {
    const config = await configWith(env);
    const ownMailer = mailer ?? createMailer(config, log);
    const sender = createListSender({ db, mailer: ownMailer, log, config, pollMs: 50 });
    running.push({ sender, mailer: ownMailer });
    sender.start();
    return sender;
  }

  /** Confirmed subscribers prefix1@example.com … prefixN@example.com, named "Name i". */
  async function subscribers(prefix: string, count: number): Promise<number[]> {
    const { rows } = await sql<{ id: number }>`
      insert into list_subscribers (email, name, status, source, confirmed_at)
      select ${prefix} || g || '@example.com', 'Name ' || g, 'confirmed', 'import',
        now() - interval '1 hour'
      from generate_series(1, ${count}::int) g
      returning id`.execute(db);
    return rows.map((row) => Number(row.id));
  }

  /** A sending broadcast whose audience is exactly these subscribers. */
  async function broadcastTo(ids: number[], slug: string): Promise<number> {
    const broadcast = await db
      .insertInto('broadcasts')
      .values({
        slug,
        subject: `News ${slug}`,
        html: '<p>Read <a href="https://example.com/guide?x=1&amp;y=2">the guide</a>.</p>',
        status: 'sending',
        started_at: new Date(),
        audience_done_at: new Date(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const id = Number(broadcast.id);
    await db
      .insertInto('broadcast_recipients')
      .values(ids.map((subscriber) => ({ broadcast_id: id, subscriber_id: subscriber })))
      .execute();
    return id;
  }

  const received = (prefix: string) =>
    sink.messages.filter((mail) => mail.envelopeTo.some((to) => to.startsWith(prefix)));

  async function states(id: number) {
    const rows = await db
      .selectFrom('broadcast_recipients')
      .select(['status', sql<number>`count(*)::int`.as('n')])
      .where('broadcast_id', '=', id)
      .groupBy('status')
      .execute();
    return Object.fromEntries(rows.map((row) => [row.status, row.n]));
  }

  const done = (id: number, timeoutMs = 20_000) =>
    eventually(async () => ((await states(id)).pending ? undefined : states(id)), timeoutMs);

  function expectEachOnce(prefix: string, count: number) {
    const addresses = received(prefix).flatMap((mail) => mail.envelopeTo);
    expect(addresses).toHaveLength(count);
    expect(new Set(addresses).size).toBe(count);
  }

  it('sends each recipient exactly once with two senders on one database: personalised, a text part, campaign links, the sender and one-click unsubscribe', async () => {
    const ids = await subscribers('once', 40);
    const id = await broadcastTo(ids, 'spring-news');
    await Promise.all([startSender(), startSender()]);
    expect(await done(id)).toEqual({ sent: 40 });
    expectEachOnce('once', 40);

    const mail = received('once').find((each) => each.envelopeTo[0] === 'once7@example.com')!;
    expect(mail.subject).toBe('News spring-news');
    expect(mail.html).toContain('Hi Name 7,');
    expect(mail.html).toContain(
      'https://example.com/guide?x=1&amp;y=2&amp;utm_source=newsletter&amp;utm_medium=email&amp;utm_campaign=spring-news',
    );
    expect(mail.html).toContain('12 Garden Lane<br>Portland, OR 97201');
    expect(mail.text).toContain('Hi Name 7,');
    expect(mail.text).toContain(
      'the guide (https://example.com/guide?x=1&y=2&utm_source=newsletter&utm_medium=email&utm_campaign=spring-news)',
    );
    expect(mail.text).toMatch(/Maya Stone\r?\n12 Garden Lane/);
    expect(mail.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    const token = /\/list\/unsubscribe\/([\w-]+)>/.exec(
      String(mail.headers['list-unsubscribe']),
    )![1]!;
    const stored = await db
      .selectFrom('list_tokens')
      .select(['subscriber_id', 'purpose'])
      .where('token_hash', '=', tokenHash(token))
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ subscriber_id: ids[6], purpose: 'unsubscribe' });
    const broadcast = await eventually(async () => {
      const row = await db
        .selectFrom('broadcasts')
        .select(['status', 'finished_at'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      return row.status === 'sent' ? row : undefined;
    });
    expect(broadcast.finished_at).toBeInstanceOf(Date);
  });

  it('claims the first due rows of a fresh snapshot from the index in claim order, without sorting the rest', async () => {
    // A snapshot batch shares one next_attempt_at: an index that does not also order by id
    // made every claim read and sort the whole batch (30 ms at 100,000 recipients). And with
    // statistics from before the snapshot, the planner sorted every due row (150 ms).
    await sql`analyze broadcast_recipients`.execute(db);
    const ids = await subscribers('order', 6000);
    const broadcast = await db
      .insertInto('broadcasts')
      .values({ slug: 'claim-order', subject: 'Order', html: '<p>Hi</p>', status: 'sending' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const id = Number(broadcast.id);
    await sql`update broadcasts set started_at = now() where id = ${id}`.execute(db);
    while (await snapshotAudience(db));
    const { rows } = await sql<Record<string, string>>`explain ${claimStatement({
      wanted: 36,
      rate: { perSecond: 1000, perHour: 0 },
      leaseMs: 30_000,
      tokenHashes: [],
    })}`.execute(db);
    const plan = rows.map((row) => Object.values(row)[0]).join('\n');
    // The due rows' part of the plan (the claimed few are numbered and listed after it).
    const due = plan.slice(plan.indexOf('CTE due'), plan.indexOf('CTE skipped'));
    expect(due).toContain('Index Scan using broadcast_recipients_due_idx');
    expect(due).not.toMatch(/Sort/);
    // Gone again: the other tests' audiences and claims are their own subscribers only.
    await sql`delete from broadcasts where id = ${id}`.execute(db);
    await sql`delete from list_subscribers where id = any(${ids})`.execute(db);
  });

  it('sends the rows of a sequence step, which stays sending, with its latest wording', async () => {
    const [first, second] = await subscribers('step', 2);
    const step = await db
      .insertInto('broadcasts')
      .values({
        kind: 'sequence',
        slug: 'welcome-step',
        subject: 'Day two',
        html: '<p>First wording</p>',
        status: 'sending',
        // A step's place and delay (migration 0017).
        position: 0,
        delay_days: 2,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const id = Number(step.id);
    const enqueue = (subscriber: number) =>
      db
        .insertInto('broadcast_recipients')
        .values({ broadcast_id: id, subscriber_id: subscriber })
        .onConflict((conflict) => conflict.columns(['broadcast_id', 'subscriber_id']).doNothing())
        .execute();
    await enqueue(first!);
    await startSender();
    await sink.waitFor((mail) => mail.envelopeTo[0] === 'step1@example.com');
    await sql`update broadcasts set html = '<p>Second wording</p>' where id = ${id}`.execute(db);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await enqueue(second!);
    await enqueue(first!);
    const later = await sink.waitFor((mail) => mail.envelopeTo[0] === 'step2@example.com');
    expect(later.html).toContain('Second wording');
    expect(await done(id)).toEqual({ sent: 2 });
    expectEachOnce('step', 2);
    const row = await db
      .selectFrom('broadcasts')
      .select('status')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('sending');
  });

  it('takes the audience when it starts: confirmed subscribers only, without buyers when asked', async () => {
    const [confirmed, buyer, pending, unsubscribed, later] = await subscribers('aud', 5);
    await sql`update list_subscribers set status = 'pending', confirmed_at = null
      where id = ${pending}`.execute(db);
    await sql`update list_subscribers set status = 'unsubscribed' where id = ${unsubscribed}`.execute(
      db,
    );
    await sql`update list_subscribers set confirmed_at = now() + interval '1 hour'
      where id = ${later}`.execute(db);
    await sql`insert into orders (provider, session_id, email, name, amount_total, currency, status, paid_at)
      values ('stripe', 'cs_aud_buyer', 'AUD2@example.com', 'Buyer', 2900, 'usd', 'paid', now())`.execute(
      db,
    );
    const broadcast = await db
      .insertInto('broadcasts')
      .values({
        slug: 'audience',
        subject: 'Audience',
        html: '<p>Hello</p>',
        exclude_buyers: true,
        status: 'sending',
        started_at: new Date(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const id = Number(broadcast.id);
    await startSender();
    await done(id);
    await eventually(async () => {
      const row = await db
        .selectFrom('broadcasts')
        .select('status')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      return row.status === 'sent' ? true : undefined;
    });
    const rows = await db
      .selectFrom('broadcast_recipients')
      .select('subscriber_id')
      .where('broadcast_id', '=', id)
      .execute();
    const mine = rows
      .map((row) => row.subscriber_id)
      .filter((subscriber) =>
        [confirmed, buyer, pending, unsubscribed, later].includes(subscriber),
      );
    expect(mine).toEqual([confirmed]);
    expect(received('aud').flatMap((mail) => mail.envelopeTo)).toEqual(['aud1@example.com']);
  });

  it('snapshots a large audience in batches, each resuming after the last subscriber it took', async () => {
    await subscribers('batch', 150);
    const broadcast = await db
      .insertInto('broadcasts')
      .values({
        slug: 'batches',
        subject: 'Batches',
        html: '<p>Hello</p>',
        status: 'paused',
        started_at: new Date(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const id = Number(broadcast.id);
    const { rows } = await sql<{ n: number; last: number }>`
      select count(*)::int as n, max(id)::int as last from list_subscribers
      where status = 'confirmed' and confirmed_at <= now()`.execute(db);
    const eligible = rows[0]!;
    expect(await snapshotAudience(db, 100)).toBe(true);
    const first = await db
      .selectFrom('broadcasts')
      .select(['audience_after', 'audience_done_at'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(first.audience_done_at).toBeNull();
    expect((await states(id)).pending).toBe(100);
    while (await snapshotAudience(db, 100));
    const last = await db
      .selectFrom('broadcasts')
      .select(['audience_after', 'audience_done_at'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(last.audience_done_at).toBeInstanceOf(Date);
    expect(last.audience_after).toBe(eligible.last);
    expect((await states(id)).pending).toBe(eligible.n);
    await sql`update broadcasts set status = 'cancelled' where id = ${id}`.execute(db);
  });

  it('honours an unsubscribe that commits while the broadcast sends', async () => {
    const ids = await subscribers('unsub', 30);
    const id = await broadcastTo(ids, 'unsub');
    await startSender({ MAIL_RATE_PER_SECOND: '10' });
    await sink.waitFor((mail) => mail.envelopeTo[0]!.startsWith('unsub'));
    await sql`update list_subscribers set status = 'unsubscribed', unsubscribed_at = now()
      where id = ${ids[29]}`.execute(db);
    expect(await done(id)).toEqual({ sent: 29, skipped: 1 });
    expect(received('unsub').some((mail) => mail.envelopeTo[0] === 'unsub30@example.com')).toBe(
      false,
    );
    expectEachOnce('unsub', 29);
  });

  it('checks a claimed message again before it starts: an unsubscribe while it waits for a slot stops it', async () => {
    const ids = await subscribers('slot', 4);
    const id = await broadcastTo(ids, 'slot');
    sink.delayEach(400);
    const config = await configWith();
    const mailer = createMailer(config, log);
    // One send at a time and four held: the last waits more than a second for its slot.
    const sender = createListSender({ db, mailer, log, config, pollMs: 50, concurrency: 1 });
    running.push({ sender, mailer });
    sender.start();
    await eventually(async () => {
      const { rows } = await sql<{ n: number }>`
        select count(*)::int as n from broadcast_recipients
        where broadcast_id = ${id} and locked_until is not null`.execute(db);
      return rows[0]!.n === 4 || undefined;
    });
    await sql`update list_subscribers set status = 'unsubscribed', unsubscribed_at = now()
      where id = ${ids[3]}`.execute(db);
    expect(await done(id)).toEqual({ sent: 3, skipped: 1 });
    expect(received('slot').some((mail) => mail.envelopeTo[0] === 'slot4@example.com')).toBe(false);
  });

  it('makes way for requests being answered: one send each 10 ms while they last, and all sent', async () => {
    const ids = await subscribers('visit', 30);
    const id = await broadcastTo(ids, 'visit');
    const config = await configWith();
    const mailer = createMailer(config, log);
    // Visitors all the time: the broadcast is slowed, never stopped.
    const sender = createListSender({
      db,
      mailer,
      log,
      config,
      pollMs: 50,
      visitorsWaiting: () => true,
    });
    running.push({ sender, mailer });
    sender.start();
    expect(await done(id)).toEqual({ sent: 30 });
    expectEachOnce('visit', 30);
    const { rows } = await sql<{ seconds: number }>`
      select extract(epoch from max(sent_at) - min(sent_at))::float as seconds
      from broadcast_recipients where broadcast_id = ${id}`.execute(db);
    // 29 waits of 10 ms between the first start and the last, less the 20 ms over which sent
    // marks are gathered; without waiting all 30 were marked within 0.13 s here.
    expect(rows[0]!.seconds).toBeGreaterThan(0.2);
  });

  it('keeps to MAIL_RATE_PER_SECOND across two senders together', async () => {
    const ids = await subscribers('rate', 40);
    const id = await broadcastTo(ids, 'rate');
    await Promise.all([
      startSender({ MAIL_RATE_PER_SECOND: '10' }),
      startSender({ MAIL_RATE_PER_SECOND: '10' }),
    ]);
    expect(await done(id)).toEqual({ sent: 40 });
    expectEachOnce('rate', 40);
    const { rows } = await sql<{ seconds: number }>`
      select extract(epoch from max(sent_at) - min(sent_at))::float as seconds
      from broadcast_recipients where broadcast_id = ${id}`.execute(db);
    // 40 at 10 a second shared: permits from four windows, so over two seconds from the first
    // to the last. Each sender at 10 a second of its own would take about one.
    expect(rows[0]!.seconds).toBeGreaterThan(1.8);
  });

  it('claims within the hourly cap (MAIL_RATE_PER_HOUR), counting only the messages it claimed', async () => {
    await ensureRateWindows(db);
    await sql`update mail_rate_windows set used = 0, window_start = '-infinity'`.execute(db);
    const ids = await subscribers('hourly', 5);
    const id = await broadcastTo(ids.slice(0, 4), 'hourly');
    const rate = { perSecond: 1000, perHour: 5 };
    const claim = (wanted: number) =>
      claimRecipients(db, {
        wanted,
        rate,
        leaseMs: 60_000,
        tokenHashes: Array.from(
          { length: wanted },
          (_, n) => `hourly-${wanted}-${n}-${Date.now()}`,
        ),
      });
    const used = async () =>
      (
        await sql<{
          used: number;
        }>`select used from mail_rate_windows where scope = 'hour'`.execute(db)
      ).rows[0]!.used;

    const first = await claim(3);
    expect(first.permits.granted).toBe(3);
    expect(first.claimed.map((row) => row.n)).toEqual([1, 2, 3]);
    // Two left of the hour's five, and one message due: the permit not used stays free.
    const second = await claim(5);
    expect(second.permits.granted).toBe(2);
    expect(second.claimed).toHaveLength(1);
    expect(await used()).toBe(4);
    // Each claimed message has its token, the one numbered as the message.
    const { rows: tokens } = await sql<{ subscriber_id: number }>`
      select subscriber_id from list_tokens where token_hash like 'hourly-%'`.execute(db);
    expect(tokens.map((row) => Number(row.subscriber_id)).sort((a, b) => a - b)).toEqual(
      ids.slice(0, 4),
    );

    await db
      .insertInto('broadcast_recipients')
      .values({ broadcast_id: id, subscriber_id: ids[4]! })
      .execute();
    const third = await claim(2);
    expect(third.claimed).toHaveLength(1);
    const none = await claim(1);
    expect(none.permits.granted).toBe(0);
    // Full for the hour: the next permit is at the next hour, not the next second.
    const { rows } = await sql<{ ms: number }>`
      select extract(epoch from date_trunc('hour', now()) + interval '1 hour' - now()) * 1000
        as ms`.execute(db);
    expect(none.permits.waitMs).toBeGreaterThan(Number(rows[0]!.ms) - 2000);
    await sql`update mail_rate_windows set used = 0, window_start = '-infinity'`.execute(db);
    await sql`delete from broadcasts where id = ${id}`.execute(db);
  });

  it('stops claiming while paused and goes on when resumed, each recipient once', async () => {
    const ids = await subscribers('pause', 20);
    const id = await broadcastTo(ids, 'pause');
    await startSender({ MAIL_RATE_PER_SECOND: '5' });
    await sink.waitFor((mail) => mail.envelopeTo[0]!.startsWith('pause'));
    await sql`update broadcasts set status = 'paused' where id = ${id}`.execute(db);
    await new Promise((resolve) => setTimeout(resolve, 400));
    const atPause = received('pause').length;
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(received('pause').length).toBe(atPause);
    expect((await states(id)).pending).toBe(20 - atPause);
    await sql`update broadcasts set status = 'sending' where id = ${id}`.execute(db);
    expect(await done(id)).toEqual({ sent: 20 });
    expectEachOnce('pause', 20);
  });

  it('starts a scheduled broadcast at its time', async () => {
    await subscribers('sched', 2);
    const broadcast = await db
      .insertInto('broadcasts')
      .values({
        slug: 'scheduled',
        subject: 'Scheduled',
        html: '<p>Later</p>',
        status: 'scheduled',
        scheduled_at: sql<Date>`now() + interval '1500 milliseconds'`,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const id = Number(broadcast.id);
    await startSender();
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(received('sched')).toHaveLength(0);
    await sink.waitFor((mail) => mail.envelopeTo[0]!.startsWith('sched'), 15_000);
    const row = await eventually(async () => {
      const found = await db
        .selectFrom('broadcasts')
        .select(['status', 'started_at', 'scheduled_at'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      return found.status === 'sent' ? found : undefined;
    });
    expect(row.started_at!.getTime()).toBeGreaterThanOrEqual(row.scheduled_at!.getTime());
  }, 20_000);

  it('marks a message and its subscriber bounced when the server refuses it for good (5xx)', async () => {
    const [subscriber] = await subscribers('bounce', 1);
    const id = await broadcastTo([subscriber!], 'bounce');
    sink.rejectAll(true);
    await startSender();
    expect(await done(id)).toEqual({ bounced: 1 });
    const row = await db
      .selectFrom('list_subscribers')
      .select('status')
      .where('id', '=', subscriber!)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('bounced');
    const events = await db
      .selectFrom('list_consent_events')
      .select('kind')
      .where('subscriber_id', '=', subscriber!)
      .execute();
    expect(events.map((event) => event.kind)).toEqual(['bounced']);
  });

  it('retries a temporary refusal (4xx) after MAIL_RETRY_DELAYS and sends it once', async () => {
    const [subscriber] = await subscribers('retry', 1);
    const id = await broadcastTo([subscriber!], 'retry');
    sink.refuseTemporarily(1);
    await startSender();
    expect(await done(id)).toEqual({ sent: 1 });
    const row = await db
      .selectFrom('broadcast_recipients')
      .select(['attempts', 'status'])
      .where('broadcast_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ attempts: 2, status: 'sent' });
    expectEachOnce('retry', 1);
  });

  it('does not hold back transactional mail: a queued email goes out while a broadcast fills the pool', async () => {
    const ids = await subscribers('busy', 60);
    const id = await broadcastTo(ids, 'busy');
    const config = await configWith();
    const mailer = createMailer(config, log);
    sink.delayEach(400);
    await startSender({}, mailer);
    const worker = createDeliveryWorker({
      db,
      mailer,
      log,
      retryDelaysMs: config.mailRetryDelaysMs,
      mailTimeoutMs: config.mailTimeoutMs,
    });
    worker.start();
    try {
      await sink.waitFor((mail) => mail.envelopeTo[0]!.startsWith('busy'));
      const queuedAt = Date.now();
      await queueDelivery(
        db,
        { table: 'form_submissions', id: 0 },
        { to: ['owner-alert@example.com'], subject: 'New order', html: '<p>x</p>', text: 'x' },
      );
      worker.wake();
      await sink.waitFor((mail) => mail.envelopeTo[0] === 'owner-alert@example.com', 5000);
      expect(Date.now() - queuedAt).toBeLessThan(1200);
      expect((await states(id)).pending).toBeGreaterThan(0);
    } finally {
      await worker.stop();
    }
    await done(id);
    expectEachOnce('busy', 60);
  });

  it('hands back its claims when stopped, and another sender finishes without sending anyone twice', async () => {
    const ids = await subscribers('stop', 30);
    const id = await broadcastTo(ids, 'stop');
    sink.delayEach(150);
    const first = await startSender();
    await sink.waitFor((mail) => mail.envelopeTo[0]!.startsWith('stop'));
    await first.stop();
    const stoppedAt = received('stop').length;
    const afterStop = await states(id);
    // Every claim was either recorded as sent or handed back.
    expect(afterStop.sent).toBe(stoppedAt);
    const locked = await db
      .selectFrom('broadcast_recipients')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('broadcast_id', '=', id)
      .where('locked_until', 'is not', null)
      .executeTakeFirstOrThrow();
    expect(locked.n).toBe(0);
    await startSender();
    expect(await done(id)).toEqual({ sent: 30 });
    expectEachOnce('stop', 30);
  });
});
