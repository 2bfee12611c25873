import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { formKinds } from '../../src/shared/forms/form-fields';
import { formDefinition } from '../../src/server/forms/form-definitions';
import { createScratchDatabase } from '../../bench/lib/postgres';
import { freePort } from '../../tests/support/free-port';
import { signedEvent, TEST_WEBHOOK_SECRET } from '../../tests/support/stripe-events';
import { instance, type Instance } from '../lib/instance';
import { queuedAndReceived } from '../lib/mail-key';
import { startMailSinkProcess, type MailSinkProcess } from '../lib/mail-sink-process';
import { deliverWebhook, startMixedLoad, type LoadRequest } from '../lib/mixed-load';
import { findNginx, nginxConfigSource, startNginx } from '../lib/nginx';
import { redisReachable } from '../lib/redis';
import type { HardenCheck, HardenContext, HardenPart } from '../part';

const INSTANCES = 3;
const CONNECTIONS = 50;
/** Emails must all have arrived this long after the load ends. */
const DELIVERY_LIMIT_MS = 60_000;

/** Full and CI (--quick) forms: load seconds, and the pauses around each restart. */
const PLAN = {
  full: { loadS: 60, warmS: 5, gapS: 5 },
  quick: { loadS: 15, warmS: 2, gapS: 1 },
};

const formTables = [...new Set(formKinds.map((form) => formDefinition(form).table))];

type Step = { what: string; at: number; exitMs?: number; readyMs: number };

/**
 * Three instances of the built server behind nginx (the deploy/ template), on one fresh
 * PostgreSQL database and Redis, with a real SMTP server in a process of its own. A mixed
 * load of 50 connections runs while each instance in turn gets SIGTERM and is started again
 * (its /readyz 200 before the next), then one gets kill -9 and is started again. Nothing may
 * be dropped: no 5xx or failed request during the rolling restarts, none after the kill but
 * the requests in flight at it, no acknowledged record missing, every email delivered within
 * a minute of the load, none twice.
 */
export const rolling: HardenPart = async (context) => {
  const skip = (why: string): HardenCheck[] => [
    {
      check: 'rolling restart behind nginx under load',
      result: `${process.env.CI === 'true' ? 'cannot run' : 'skipped'}: ${why}`,
      // In CI a missing service is a failure, not a pass.
      ok: process.env.CI !== 'true',
    },
  ];
  if (!context.postgresAdminUrl) return skip('set TEST_DATABASE_URL to run it');
  const nginxBinary = findNginx();
  if (!nginxBinary) return skip('no nginx (apt-get install -y nginx, or set NGINX_PATH)');
  const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
  if (!(await redisReachable(redisUrl))) return skip(`Redis does not answer at ${redisUrl}`);
  return rollingRestart(context, nginxBinary, redisUrl);
};

async function rollingRestart(
  context: HardenContext,
  nginxBinary: string,
  redisUrl: string,
): Promise<HardenCheck[]> {
  const plan = context.quick ? PLAN.quick : PLAN.full;
  const database = await createScratchDatabase(context.postgresAdminUrl!);
  const sink = await startMailSinkProcess(context.root);
  const nginxPort = await freePort();
  const publicUrl = `http://127.0.0.1:${nginxPort}`;
  const ports: number[] = [];
  for (let i = 0; i < INSTANCES; i += 1) ports.push(await freePort());
  const env = (name: string): Record<string, string> => ({
    DATABASE_URL: database.url,
    REDIS_URL: redisUrl,
    SMTP_URL: sink.url,
    DATA_DIR: path.join(context.scratchDir, `instance-${name}`),
    PUBLIC_URL: publicUrl,
    // nginx on loopback is the only proxy: the client address is the one it forwards.
    TRUST_PROXY: 'loopback',
    AUTH_SECRET: 'harden-secret-harden-secret-harden-secret',
    STRIPE_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
    FORM_RATE_LIMIT: '100000000',
    MAIL_TIMEOUT_MS: '5000',
    // The full run drains for the production default (5 s); the CI form 3 s, to stay short
    // but above deploy/'s upstream keepalive_timeout (2 s).
    DRAIN_SECONDS: context.quick ? '3' : '5',
    LOG_LEVEL: 'warn',
  });
  const instances: Instance[] = ports.map((port, i) => instance(context.root, port, env(`${i}`)));
  const pool = new pg.Pool({ connectionString: database.url, max: 2 });
  let nginx: Awaited<ReturnType<typeof startNginx>> | undefined;
  try {
    // The first start migrates the fresh database; the others then start together.
    await instances[0]!.start();
    await Promise.all(instances.slice(1).map((one) => one.start()));
    nginx = await startNginx(
      nginxBinary,
      context.root,
      nginxPort,
      instances.map((one) => one.address),
    );
    const template = nginxConfigSource(context.root);

    const load = startMixedLoad(nginx.url, CONNECTIONS, 'rolling');
    const loadStarted = Date.now();
    const steps: Step[] = [];
    let killAt = 0;
    let killedAt = 0;
    let claimedAtKill = 0;
    try {
      await sleep(plan.warmS * 1000);
      for (const [i, one] of instances.entries()) {
        const at = Date.now();
        const exitMs = await one.terminate();
        const { readyMs } = await one.start();
        steps.push({ what: `SIGTERM ${i}`, at, exitMs, readyMs });
        await sleep(plan.gapS * 1000);
      }
      killAt = Date.now();
      await instances[0]!.kill9();
      killedAt = Date.now();
      claimedAtKill = await countClaimed(pool);
      const { readyMs } = await instances[0]!.start();
      steps.push({ what: 'kill -9 0', at: killAt, readyMs });
      await sleep(Math.max(plan.gapS * 1000, loadStarted + plan.loadS * 1000 - Date.now()));
    } finally {
      await load.stop();
    }
    const loadEnded = Date.now();

    // What the load left, before any redelivery: an order behind a 5xx is one stored while
    // Stripe was told it failed.
    const storedAfterLoad = await storedRecords(pool);
    // Stripe delivers again whatever was not answered 2xx: so does the harness, once.
    const retried = await Promise.all(
      load.requests
        .filter((r) => r.kind === 'webhook' && !(r.status >= 200 && r.status < 300))
        .map((r) =>
          deliverWebhook(
            nginx!.url,
            r.detail,
            r.email,
            signedEvent(JSON.parse(r.webhook!.payload)),
          ),
        ),
    );
    const delivery = await waitForMail(pool, sink, loadEnded);
    const stored = await storedRecords(pool);
    const report = judge({
      requests: load.requests,
      retried,
      killAt,
      killedAt,
      claimedAtKill,
      stored,
      storedAfterLoad,
      delivery,
      loadS: (loadEnded - loadStarted) / 1000,
      steps,
      template,
    });
    // Kept for reading a failure: every instance's output and nginx's error log.
    const logFile = path.join(context.root, 'harden/results/rolling.log');
    await mkdir(path.dirname(logFile), { recursive: true });
    await writeFile(
      logFile,
      [
        ...instances.map((one, i) => `== instance ${i}\n${one.output()}`),
        `== nginx\n${await nginx.log()}`,
      ].join('\n'),
    );
    return report;
  } finally {
    await nginx?.stop();
    for (const one of instances) await one.stop();
    await pool.end();
    await sink.close();
    await database.drop();
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Deliveries claimed by some instance right now: the most a kill can leave half-sent. */
async function countClaimed(pool: pg.Pool): Promise<number> {
  const { rows } = await pool.query<{ n: string }>(
    `select count(*) as n from mail_deliveries where status = 'pending' and locked_until > now()`,
  );
  return Number(rows[0]!.n);
}

type Delivery = {
  /** Deliveries the database holds, and how many of them the mail server received. */
  queued: number;
  arrived: number;
  /** Milliseconds from the end of the load until every one had arrived (or the limit). */
  drainMs: number;
  /** Deliveries still pending or failed when the wait ended. */
  unsent: number;
  /** Keys received more than once, with the arrival times of each copy. */
  twice: { key: string; times: number[] }[];
  /** Messages received that match no queued delivery. */
  unknown: number;
  /** Deliveries whose key another delivery shares (then a copy may look like a duplicate). */
  sharedKeys: number;
};

/** Waits until every queued delivery has arrived once, or DELIVERY_LIMIT_MS. */
async function waitForMail(
  pool: pg.Pool,
  sink: MailSinkProcess,
  loadEnded: number,
): Promise<Delivery> {
  for (;;) {
    const { queued, received } = await queuedAndReceived(pool, sink);
    const keys = new Set(queued.map((one) => one.key));
    const arrived = [...keys].filter((key) => received.has(key)).length;
    const unsent = queued.filter((one) => !one.sent).length;
    const waited = Date.now() - loadEnded;
    if (
      (queued.length > 0 && arrived === keys.size && unsent === 0) ||
      waited > DELIVERY_LIMIT_MS
    ) {
      return {
        queued: queued.length,
        arrived,
        drainMs: waited,
        unsent,
        twice: [...received]
          .filter(([, times]) => times.length > 1)
          .map(([key, times]) => ({ key, times })),
        unknown: [...received.keys()].filter((key) => !keys.has(key)).length,
        sharedKeys: queued.length - keys.size,
      };
    }
    await sleep(250);
  }
}

type Stored = { formEmails: Set<string>; orderSessions: Set<string> };

async function storedRecords(pool: pg.Pool): Promise<Stored> {
  const formEmails = new Set<string>();
  for (const table of formTables) {
    const { rows } = await pool.query<{ email: string }>(`select email from ${table}`);
    for (const row of rows) formEmails.add(row.email);
  }
  const { rows } = await pool.query<{ session_id: string }>('select session_id from orders');
  return { formEmails, orderSessions: new Set(rows.map((row) => row.session_id)) };
}

const failedRequest = (r: LoadRequest) => r.status === 0 || r.status >= 500;
const describe = (r: LoadRequest) =>
  `${r.kind} ${r.status || r.error}${r.body ? ` "${r.body.slice(0, 60)}"` : ''}`;

function judge(run: {
  requests: LoadRequest[];
  retried: LoadRequest[];
  /** Just before SIGKILL was sent, and once the process was seen gone. */
  killAt: number;
  killedAt: number;
  claimedAtKill: number;
  stored: Stored;
  storedAfterLoad: Stored;
  delivery: Delivery;
  loadS: number;
  steps: Step[];
  template: string;
}): HardenCheck[] {
  const { requests, killAt, stored, delivery } = run;
  const rolling = requests.filter((r) => r.startedAt < killAt && r.endedAt < killAt);
  // In flight at the kill: started before the process was gone, ended after the signal.
  const inFlightAtKill = requests.filter((r) => r.startedAt < run.killedAt && r.endedAt >= killAt);
  const afterKill = requests.filter((r) => r.startedAt >= run.killedAt);
  const rollingFailed = rolling.filter(failedRequest);
  const afterKillFailed = afterKill.filter(failedRequest);
  const inFlightFailed = inFlightAtKill.filter(failedRequest);
  const count = (list: LoadRequest[], kind: LoadRequest['kind']) =>
    list.filter((r) => r.kind === kind).length;

  const forms = requests.filter((r) => r.kind === 'form');
  const acknowledged = forms.filter((r) => r.acknowledged);
  const formsMissing = acknowledged.filter((r) => !stored.formEmails.has(r.email!));

  const webhooks = requests.filter((r) => r.kind === 'webhook');
  const ok2xx = (r: LoadRequest) => r.status >= 200 && r.status < 300;
  const webhooksLost = webhooks.filter((r) => ok2xx(r) && !stored.orderSessions.has(r.detail));
  // A 5xx tells Stripe nothing was kept: an order stored behind it is a broken promise.
  // The kill may cut an answer after the order was stored: Stripe's retry finds it stored.
  const cutByKill = new Set(inFlightAtKill);
  const stored5xx = webhooks.filter(
    (r) => r.status >= 500 && run.storedAfterLoad.orderSessions.has(r.detail),
  );
  const webhooks5xxStored = stored5xx.filter((r) => !cutByKill.has(r));
  const retriedStored = run.retried.filter((r) => stored.orderSessions.has(r.detail));
  const ordersMissing = webhooks.filter((r) => !stored.orderSessions.has(r.detail));

  const rollingTwice = delivery.twice.filter(({ times }) => times[1]! < killAt);
  const killTwice = delivery.twice.filter(({ times }) => times[1]! >= killAt);
  const killTwiceAllowed =
    run.claimedAtKill + inFlightAtKill.filter((r) => r.kind !== 'page').length;

  const stepsText = run.steps
    .map(
      (s) =>
        `${s.what}: ${s.exitMs === undefined ? '' : `exit ${Math.round(s.exitMs)} ms, `}` +
        `ready ${Math.round(s.readyMs)} ms`,
    )
    .join('; ');
  const perKind = `(${count(rolling, 'page')} pages, ${count(rolling, 'form')} forms, ${count(rolling, 'webhook')} webhooks)`;
  const sample = (list: LoadRequest[]) => {
    const kinds = new Map<string, number>();
    for (const r of list) kinds.set(describe(r), (kinds.get(describe(r)) ?? 0) + 1);
    const top = [...kinds].sort((a, b) => b[1] - a[1]).slice(0, 3);
    return top.length > 0 ? `; ${top.map(([what, n]) => `${n} × ${what}`).join(', ')}` : '';
  };

  return [
    {
      check: `SIGTERM each of ${INSTANCES} instances in turn behind nginx, ${CONNECTIONS} connections: no 5xx, no failed request`,
      result:
        `${rolling.length} requests ${perKind} in ${Math.round(run.loadS)} s of load, ` +
        `${rollingFailed.length} × 5xx or connection error${sample(rollingFailed)}; ${stepsText}; ` +
        `config ${run.template}`,
      ok: rolling.length > 0 && rollingFailed.length === 0,
      figures: {
        connections: CONNECTIONS,
        load_s: Math.round(run.loadS),
        requests: requests.length,
        rolling_requests: rolling.length,
        rolling_failed: rollingFailed.length,
        rolling_5xx: rollingFailed.filter((r) => r.status >= 500).length,
        rolling_connection_errors: rollingFailed.filter((r) => r.status === 0).length,
        ...Object.fromEntries(
          run.steps.flatMap((s) => [
            ...(s.exitMs === undefined ? [] : [[`${s.what} exit_ms`, Math.round(s.exitMs)]]),
            [`${s.what} ready_ms`, Math.round(s.readyMs)],
          ]),
        ),
        template: run.template,
      },
    },
    {
      check: 'kill -9 of one instance behind nginx: only requests in flight at the kill fail',
      result:
        `${inFlightAtKill.length} in flight at the kill, ${inFlightFailed.length} failed; ` +
        `${afterKill.length} started after it, ${afterKillFailed.length} failed${sample(afterKillFailed)}`,
      ok: afterKillFailed.length === 0,
      figures: {
        in_flight_at_kill: inFlightAtKill.length,
        in_flight_failed: inFlightFailed.length,
        after_kill: afterKill.length,
        after_kill_failed: afterKillFailed.length,
      },
    },
    {
      check: 'every acknowledged submission and every 2xx-answered order stored',
      result:
        `${acknowledged.length} submissions acknowledged, ${formsMissing.length} missing; ` +
        `${webhooks.length} webhook deliveries, ${webhooksLost.length} answered 2xx and lost, ` +
        `${webhooks5xxStored.length} answered 5xx though stored ` +
        `(+${stored5xx.length - webhooks5xxStored.length} in flight at the kill); ` +
        `${run.retried.length} redelivered, ${retriedStored.length} stored then; ` +
        `${ordersMissing.length} orders missing after the redelivery`,
      ok:
        acknowledged.length > 0 &&
        formsMissing.length === 0 &&
        webhooksLost.length === 0 &&
        webhooks5xxStored.length === 0 &&
        ordersMissing.length === 0,
      figures: {
        acknowledged: acknowledged.length,
        submissions_missing: formsMissing.length,
        webhooks: webhooks.length,
        webhooks_lost: webhooksLost.length,
        webhooks_5xx_stored: webhooks5xxStored.length,
        webhooks_redelivered: run.retried.length,
        orders_missing: ordersMissing.length,
      },
    },
    {
      check: 'every queued email delivered within a minute after the load, none twice',
      result:
        `${delivery.queued} queued, ${delivery.arrived} arrived, ${delivery.unsent} not sent, ` +
        `all in ${(delivery.drainMs / 1000).toFixed(1)} s after the load; ` +
        `${rollingTwice.length} twice during the rolling restarts, ` +
        `${killTwice.length} twice around the kill -9 (allowed ${killTwiceAllowed}: ` +
        `${run.claimedAtKill} claimed + the submissions and webhooks in flight)` +
        (delivery.unknown > 0 ? `; ${delivery.unknown} messages match no queued email` : '') +
        (delivery.sharedKeys > 0 ? `; ${delivery.sharedKeys} deliveries share a key` : ''),
      ok:
        delivery.queued > 0 &&
        delivery.arrived === delivery.queued - delivery.sharedKeys &&
        delivery.unsent === 0 &&
        delivery.drainMs <= DELIVERY_LIMIT_MS &&
        rollingTwice.length === 0 &&
        killTwice.length <= killTwiceAllowed &&
        delivery.unknown === 0,
      figures: {
        queued: delivery.queued,
        arrived: delivery.arrived,
        unsent: delivery.unsent,
        drain_ms: delivery.drainMs,
        twice_rolling: rollingTwice.length,
        twice_kill: killTwice.length,
        twice_kill_allowed: killTwiceAllowed,
        unknown: delivery.unknown,
        shared_keys: delivery.sharedKeys,
      },
    },
  ];
}
