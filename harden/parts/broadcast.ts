import path from 'node:path';
import pg from 'pg';
import { listUnsubscribePath } from '../../src/shared/list/list-api';
import { newToken, tokenHash } from '../../src/server/http/tokens';
import {
  benchDraft,
  broadcastAction,
  createBroadcast,
  setSender,
} from '../../bench/lib/broadcast-admin';
import { createScratchDatabase } from '../../bench/lib/postgres';
import { startRecipientSink, type RecipientSink } from '../../bench/lib/recipient-sink';
import type { StoreAdmin } from '../../bench/lib/store-admin';
import { freePort } from '../../tests/support/free-port';
import { TEST_WEBHOOK_SECRET } from '../../tests/support/stripe-events';
import { instance, type Instance } from '../lib/instance';
import type { HardenCheck, HardenContext, HardenPart } from '../part';
import { sequenceStopsAtPurchase } from './broadcast-sequence';

const INSTANCES = 3;
const ADMIN = 'owner@example.com';
/**
 * Confirmed subscribers, the list rate of every instance together (so one broadcast lasts long
 * enough for the restarts: recipients ÷ rate seconds), the mail server's delay per message, the
 * subscribers who unsubscribe while it sends, and the wait for a broadcast to finish.
 */
const PLAN = {
  full: { subscribers: 3_000, ratePerSecond: 120, delayMs: 20, unsubscribers: 20, limitS: 300 },
  quick: { subscribers: 600, ratePerSecond: 60, delayMs: 10, unsubscribers: 5, limitS: 180 },
};

type Plan = (typeof PLAN)['full'];

/** What the harness needs of the running system. */
type Rig = {
  context: HardenContext;
  plan: Plan;
  pool: pg.Pool;
  sink: RecipientSink;
  instances: Instance[];
  admin: StoreAdmin;
};

/**
 * Broadcasts that survive crashes and deploys: three instances of the built server on one
 * fresh PostgreSQL database, sending to a real SMTP server in a process of its own that counts
 * what each address received. A broadcast with kill -9 of the sending instance at about half
 * and at 90 % (started again each time), one with every instance restarted in turn (SIGTERM,
 * start) while it sends, and one during which some subscribers not yet reached unsubscribe by
 * the one-click link. Every recipient gets it exactly once, except at most the rows the killed
 * instance had claimed at the kill; after a SIGTERM nothing twice; the unsubscribed nothing.
 * Then the follow-up sequence stopping at a purchase between two steps (broadcast-sequence.ts).
 */
export const broadcast: HardenPart = async (context) => {
  if (!context.postgresAdminUrl) {
    return [
      {
        check: 'broadcasts under kill -9, rolling restarts and unsubscribes',
        result: `${process.env.CI === 'true' ? 'cannot run' : 'skipped'}: set TEST_DATABASE_URL to run it`,
        ok: process.env.CI !== 'true',
      },
    ];
  }
  const plan = context.quick ? PLAN.quick : PLAN.full;
  const database = await createScratchDatabase(context.postgresAdminUrl);
  const sink = await startRecipientSink(context.root);
  const ports: number[] = [];
  for (let i = 0; i < INSTANCES; i += 1) ports.push(await freePort());
  const publicUrl = `http://127.0.0.1:${ports[0]}`;
  const instances = ports.map((port, i) =>
    instance(context.root, port, {
      DATABASE_URL: database.url,
      SMTP_URL: sink.url,
      DATA_DIR: path.join(context.scratchDir, `broadcast-instance-${i}`),
      PUBLIC_URL: publicUrl,
      AUTH_SECRET: 'harden-secret-harden-secret-harden-secret',
      ADMIN_EMAILS: ADMIN,
      STRIPE_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
      MAIL_RATE_PER_SECOND: String(plan.ratePerSecond),
      MAIL_TIMEOUT_MS: '5000',
      // No balancer in front: nothing to wait for before the drain.
      DRAIN_SECONDS: '0',
      LOG_LEVEL: 'warn',
    }),
  );
  const pool = new pg.Pool({ connectionString: database.url, max: 2 });
  try {
    await instances[0]!.start();
    const admin: StoreAdmin = { url: publicUrl, cookie: await sink.signIn(publicUrl, ADMIN) };
    await setSender(admin);
    // Confirmed a month ago: the follow-up sequence switched on later in the part does not
    // reach them (a step whose day passed long before it was added is not sent).
    await pool.query(
      `insert into list_subscribers (email, name, status, source, confirmed_at)
       select 'reader' || g || '@harden.test', 'Reader ' || g, 'confirmed', 'import',
         now() - interval '30 days'
       from generate_series(1, $1::int) as g`,
      [plan.subscribers],
    );
    await sink.delayEach(plan.delayMs);
    const rig: Rig = { context, plan, pool, sink, instances, admin };
    const checks: HardenCheck[] = [];
    const sequence = (one: Rig) => sequenceStopsAtPurchase({ ...one, limitS: one.plan.limitS });
    for (const scenario of [killTwice, rollingRestart, unsubscribeWhileSending, sequence]) {
      try {
        checks.push(await scenario(rig));
      } catch (error) {
        checks.push({ check: scenario.name, result: String(error), ok: false });
      }
    }
    return checks;
  } finally {
    for (const one of instances) await one.stop();
    await pool.end();
    await sink.close();
    await database.drop();
  }
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Brings the running instances to `wanted` (the first `wanted` of them). */
async function runInstances(rig: Rig, wanted: number) {
  for (const [i, one] of rig.instances.entries()) {
    if (i < wanted && !one.current()) await one.start();
    if (i >= wanted && one.current()) await one.stop();
  }
}

type Progress = { recipients: number; sent: number; claimed: number; status: string };

async function progress(pool: pg.Pool, id: number): Promise<Progress> {
  const { rows } = await pool.query<{
    recipients: string;
    sent: string;
    claimed: string;
    status: string;
  }>(
    `select count(r.id) as recipients,
            count(r.id) filter (where r.status = 'sent') as sent,
            count(r.id) filter (where r.status = 'pending' and r.locked_until > now()) as claimed,
            b.status
     from broadcasts b left join broadcast_recipients r on r.broadcast_id = b.id
     where b.id = $1 group by b.status`,
    [id],
  );
  const row = rows[0]!;
  return {
    recipients: Number(row.recipients),
    sent: Number(row.sent),
    claimed: Number(row.claimed),
    status: row.status,
  };
}

/** Starts a new broadcast to every confirmed subscriber, the mail server's counts reset. */
async function startBroadcast(rig: Rig, subject: string): Promise<number> {
  await rig.sink.reset();
  const id = await createBroadcast(rig.admin, benchDraft(subject));
  await broadcastAction(rig.admin, id, 'send');
  return id;
}

/** Until `fraction` of the recipients are recorded sent (the audience snapshot is made). */
async function untilSent(rig: Rig, id: number, fraction: number): Promise<Progress> {
  const deadline = Date.now() + rig.plan.limitS * 1000;
  for (;;) {
    const now = await progress(rig.pool, id);
    if (now.status === 'sent' || (now.recipients > 0 && now.sent >= now.recipients * fraction))
      return now;
    if (Date.now() > deadline)
      throw new Error(
        `broadcast ${id}: ${now.sent} of ${now.recipients} sent (${now.status}) after ${rig.plan.limitS} s`,
      );
    await sleep(50);
  }
}

type Delivery = {
  recipients: number;
  /** Rows not sent when it finished (skipped ones beside). */
  unsent: number;
  skipped: number;
  /** Recipients the mail server never got it for, and those it got it twice or more for. */
  missing: number;
  twice: number;
  /** Messages to addresses that are not recipients of it. */
  strangers: number;
  seconds: number;
};

/** Once the broadcast is sent: what each recipient got, counted at the mail server. */
async function delivered(rig: Rig, id: number, started: number): Promise<Delivery> {
  await untilSent(rig, id, 1);
  const seconds = (Date.now() - started) / 1000;
  // The last answers of the mail server may come just after the commit that finished it.
  await sleep(rig.plan.delayMs * 5 + 500);
  const { rows } = await rig.pool.query<{ email: string; status: string }>(
    `select lower(s.email) as email, r.status from broadcast_recipients r
     join list_subscribers s on s.id = r.subscriber_id where r.broadcast_id = $1`,
    [id],
  );
  const received = await rig.sink.recipients();
  const emails = new Set(rows.map((row) => row.email));
  let missing = 0;
  let twice = 0;
  for (const row of rows) {
    if (row.status === 'skipped') continue;
    const count = received.get(row.email)?.count ?? 0;
    if (count === 0) missing += 1;
    if (count > 1) twice += 1;
  }
  return {
    recipients: rows.length,
    unsent: rows.filter((row) => row.status !== 'sent' && row.status !== 'skipped').length,
    skipped: rows.filter((row) => row.status === 'skipped').length,
    missing,
    twice,
    strangers: [...received.keys()].filter((email) => !emails.has(email)).length,
    seconds: Math.round(seconds),
  };
}

const deliveryText = (d: Delivery) =>
  `${d.recipients} recipients in ${d.seconds} s: ${d.missing} never got it, ${d.twice} got it twice, ` +
  `${d.unsent} rows not sent` +
  (d.skipped > 0 ? `, ${d.skipped} skipped` : '') +
  (d.strangers > 0 ? `, ${d.strangers} addresses not in the audience got mail` : '');

const deliveryFigures = (d: Delivery) => ({
  recipients: d.recipients,
  missing: d.missing,
  twice: d.twice,
  unsent: d.unsent,
  skipped: d.skipped,
  strangers: d.strangers,
  seconds: d.seconds,
});

/** kill -9 of the only (sending) instance at about half and at 90 %, started again each time. */
async function killTwice(rig: Rig): Promise<HardenCheck> {
  await runInstances(rig, 1);
  const one = rig.instances[0]!;
  const started = Date.now();
  const id = await startBroadcast(rig, 'A broadcast killed twice');
  const kills: { at: number; sent: number; claimed: number; readyMs: number }[] = [];
  for (const fraction of [0.5, 0.9]) {
    await untilSent(rig, id, fraction);
    await one.kill9();
    // Read after the process is gone: its claims are still leased, none can be taken.
    const at = await progress(rig.pool, id);
    const { readyMs } = await one.start();
    kills.push({
      at: fraction,
      sent: at.sent,
      claimed: at.claimed,
      readyMs: Math.round(readyMs),
    });
  }
  const d = await delivered(rig, id, started);
  const allowed = kills.reduce((sum, kill) => sum + kill.claimed, 0);
  return {
    check:
      'kill -9 of the sending instance at ~50 % and ~90 % of a broadcast: every recipient once, ' +
      'twice at most the sends it had claimed',
    result:
      `${deliveryText(d)} (allowed twice: ${allowed} claimed at the kills); ` +
      kills
        .map(
          (k) =>
            `kill at ${k.sent} of ${d.recipients} sent with ${k.claimed} claimed, ready again in ${k.readyMs} ms`,
        )
        .join('; '),
    ok:
      d.recipients > 0 &&
      d.missing === 0 &&
      d.unsent === 0 &&
      d.strangers === 0 &&
      d.twice <= allowed &&
      kills.every((k) => k.sent < d.recipients),
    figures: {
      ...deliveryFigures(d),
      twice_allowed: allowed,
      ...Object.fromEntries(
        kills.flatMap((k, i) => [
          [`kill_${i + 1}_sent`, k.sent],
          [`kill_${i + 1}_claimed`, k.claimed],
          [`kill_${i + 1}_ready_ms`, k.readyMs],
        ]),
      ),
    },
  };
}

/** Every instance in turn SIGTERM and started again while a broadcast sends: none twice. */
async function rollingRestart(rig: Rig): Promise<HardenCheck> {
  await runInstances(rig, INSTANCES);
  const started = Date.now();
  const id = await startBroadcast(rig, 'A broadcast through a rolling restart');
  const steps: { sent: number; exitMs: number; readyMs: number }[] = [];
  await untilSent(rig, id, 0.1);
  for (const one of rig.instances) {
    const { sent } = await progress(rig.pool, id);
    const exitMs = await one.terminate();
    const { readyMs } = await one.start();
    steps.push({ sent, exitMs: Math.round(exitMs), readyMs: Math.round(readyMs) });
    await sleep(1000);
  }
  const d = await delivered(rig, id, started);
  return {
    check: `SIGTERM and start of each of ${INSTANCES} instances in turn during a broadcast: every recipient exactly once`,
    result:
      `${deliveryText(d)}; ` +
      steps
        .map((s, i) => `SIGTERM ${i} at ${s.sent} sent: exit ${s.exitMs} ms, ready ${s.readyMs} ms`)
        .join('; '),
    ok:
      d.recipients > 0 &&
      d.missing === 0 &&
      d.twice === 0 &&
      d.unsent === 0 &&
      d.strangers === 0 &&
      steps.every((s) => s.sent < d.recipients),
    figures: {
      ...deliveryFigures(d),
      ...Object.fromEntries(
        steps.flatMap((s, i) => [
          [`sigterm_${i}_sent`, s.sent],
          [`sigterm_${i}_exit_ms`, s.exitMs],
          [`sigterm_${i}_ready_ms`, s.readyMs],
        ]),
      ),
    },
  };
}

/**
 * Subscribers the broadcast has not reached yet unsubscribe by the one-click link while it
 * sends: they get nothing, their rows are skipped, everyone else gets it once.
 */
async function unsubscribeWhileSending(rig: Rig): Promise<HardenCheck> {
  await runInstances(rig, INSTANCES);
  // The last subscribers by id: the snapshot's last rows, the furthest from being sent.
  const { rows: leaving } = await rig.pool.query<{ id: string; email: string }>(
    `select id, lower(email) as email from list_subscribers
     where status = 'confirmed' and email like '%@harden.test' order by id desc limit $1`,
    [rig.plan.unsubscribers],
  );
  const tokens = leaving.map(() => newToken());
  await rig.pool.query(
    `insert into list_tokens (token_hash, subscriber_id, purpose)
     select h, s, 'unsubscribe' from unnest($1::text[], $2::bigint[]) as t(h, s)`,
    [tokens.map(tokenHash), leaving.map((row) => row.id)],
  );
  const started = Date.now();
  const id = await startBroadcast(rig, 'A broadcast some leave during');
  await untilSent(rig, id, 0.2);
  const { rows: before } = await rig.pool.query<{ n: string }>(
    `select count(*) as n from broadcast_recipients
     where broadcast_id = $1 and subscriber_id = any($2::bigint[])
       and status = 'pending' and (locked_until is null or locked_until <= now())`,
    [id, leaving.map((row) => row.id)],
  );
  const waitingAtUnsubscribe = Number(before[0]!.n);
  const answers = await Promise.all(
    tokens.map(async (token, i) => {
      const response = await fetch(
        `${rig.instances[i % INSTANCES]!.current()!.url}${listUnsubscribePath(token)}`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: 'List-Unsubscribe=One-Click',
        },
      );
      await response.arrayBuffer();
      return response.status;
    }),
  );
  const d = await delivered(rig, id, started);
  const received = await rig.sink.recipients();
  const gotIt = leaving.filter((row) => (received.get(row.email)?.count ?? 0) > 0).length;
  const { rows: skippedRows } = await rig.pool.query<{ n: string }>(
    `select count(*) as n from broadcast_recipients
     where broadcast_id = $1 and subscriber_id = any($2::bigint[]) and status = 'skipped'`,
    [id, leaving.map((row) => row.id)],
  );
  const skipped = Number(skippedRows[0]!.n);
  const answered200 = answers.filter((status) => status === 200).length;
  return {
    check:
      'unsubscribe by the one-click link during a broadcast: nothing after it, everyone else once',
    result:
      `${leaving.length} unsubscribed while it sent (${answered200} answered 200; ` +
      `${waitingAtUnsubscribe} of their rows still waiting then), ${gotIt} of them got it anyway, ` +
      `${skipped} of their rows skipped; ${deliveryText(d)}`,
    ok:
      answered200 === leaving.length &&
      waitingAtUnsubscribe === leaving.length &&
      gotIt === 0 &&
      skipped === leaving.length &&
      d.missing === 0 &&
      d.twice === 0 &&
      d.unsent === 0 &&
      d.strangers === 0,
    figures: {
      ...deliveryFigures(d),
      unsubscribed: leaving.length,
      unsubscribed_waiting: waitingAtUnsubscribe,
      unsubscribed_got_it: gotIt,
      unsubscribed_skipped: skipped,
    },
  };
}
