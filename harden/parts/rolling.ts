import { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
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
import { findHaproxy, HAPROXY_CONFIG, startHaproxy } from '../lib/haproxy';
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

type Step = {
  what: string;
  at: number;
  exitMs?: number;
  readyMs: number;
  /** Until the balancer sends it requests again (HAProxy's check counts it up). */
  backMs?: number;
};

type Kind = 'haproxy' | 'nginx';
const LABEL: Record<Kind, string> = {
  haproxy: 'HAProxy (deploy/haproxy: /readyz checked every second)',
  nginx: 'nginx with deploy/rolling-restart',
};

/** What the restarts need of the balancer in front. */
type Balancer = {
  url: string;
  /** Which of deploy/'s files it runs. */
  config: string;
  /** Restarts every instance in turn, as an operator would behind this balancer. */
  restartAll(instances: Instance[], steps: Step[], gapMs: number): Promise<void>;
  log(): Promise<string>;
  stop(): Promise<void>;
};

/**
 * Three instances of the built server behind a balancer, on one fresh PostgreSQL database and
 * Redis, with a real SMTP server in a process of its own, run twice: behind HAProxy with
 * deploy/'s configuration (each instance in turn gets SIGTERM, as `systemctl restart` sends
 * it, and is started again; HAProxy's /readyz check alone takes it out and brings it back),
 * and behind nginx with deploy/'s configuration, restarted by deploy/rolling-restart (which
 * takes each instance out of nginx before the SIGTERM). A mixed load of 50 connections runs
 * meanwhile; then one instance gets kill -9 and is started again. Nothing may be dropped: no
 * 5xx or failed request during the rolling restarts, none after the kill but the requests in
 * flight at it, no acknowledged record missing, every email delivered within a minute of the
 * load, none twice.
 */
export const rolling: HardenPart = async (context) => {
  const skip = (kind: Kind, why: string): HardenCheck[] => [
    {
      check: `rolling restart behind ${LABEL[kind]} under load`,
      result: `${process.env.CI === 'true' ? 'cannot run' : 'skipped'}: ${why}`,
      // In CI a missing service is a failure, not a pass.
      ok: process.env.CI !== 'true',
    },
  ];
  const kinds: Kind[] = ['haproxy', 'nginx'];
  if (!context.postgresAdminUrl)
    return kinds.flatMap((kind) => skip(kind, 'set TEST_DATABASE_URL to run it'));
  const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
  if (!(await redisReachable(redisUrl)))
    return kinds.flatMap((kind) => skip(kind, `Redis does not answer at ${redisUrl}`));
  const checks: HardenCheck[] = [];
  const haproxyBinary = findHaproxy();
  checks.push(
    ...(haproxyBinary
      ? await rollingRestart(context, 'haproxy', haproxyBinary, redisUrl)
      : skip('haproxy', 'no HAProxy (apt-get install -y haproxy, or set HAPROXY_PATH)')),
  );
  const nginxBinary = findNginx();
  checks.push(
    ...(nginxBinary
      ? await rollingRestart(context, 'nginx', nginxBinary, redisUrl)
      : skip('nginx', 'no nginx (apt-get install -y nginx, or set NGINX_PATH)')),
  );
  return checks;
};

/** HAProxy as deploy/ configures it: a plain SIGTERM and start of each instance in turn. */
async function haproxyBalancer(
  binary: string,
  root: string,
  port: number,
  instances: Instance[],
): Promise<Balancer> {
  const haproxy = await startHaproxy(
    binary,
    root,
    port,
    instances.map((one) => one.address),
  );
  return {
    url: haproxy.url,
    config: HAPROXY_CONFIG,
    async restartAll(all, steps, gapMs) {
      for (const [i, one] of all.entries()) {
        const at = Date.now();
        const exitMs = await one.terminate();
        const { readyMs } = await one.start();
        // The next one stops only once HAProxy sends this one requests again (rise 2).
        const deadline = Date.now() + 15_000;
        while (!(await haproxy.isUp(one.address))) {
          if (Date.now() > deadline) throw new Error(`HAProxy did not count ${one.address} up`);
          await sleep(100);
        }
        steps.push({ what: `SIGTERM ${i}`, at, exitMs, readyMs, backMs: Date.now() - at });
        await sleep(gapMs);
      }
    },
    log: haproxy.log,
    stop: haproxy.stop,
  };
}

/**
 * nginx as deploy/ configures it, every instance restarted by deploy/rolling-restart, whose
 * restart command (systemctl in production) asks the harness to SIGTERM and start the
 * instance on that port.
 */
async function nginxBalancer(
  binary: string,
  root: string,
  port: number,
  instances: Instance[],
): Promise<Balancer> {
  const nginx = await startNginx(
    binary,
    root,
    port,
    instances.map((one) => one.address),
  );
  if (!nginx.upstreamsFile) throw new Error('deploy/ has no nginx upstream include file');
  let scriptOutput = '';
  return {
    url: nginx.url,
    config: `${nginxConfigSource(root)} + deploy/rolling-restart`,
    async restartAll(all, steps) {
      const control = http.createServer((request, response) => {
        const port = new URL(request.url ?? '/', 'http://x').searchParams.get('port');
        const i = all.findIndex((one) => String(one.port) === port);
        if (i < 0) return void response.writeHead(404).end();
        void (async () => {
          const at = Date.now();
          const exitMs = await all[i]!.terminate();
          const { readyMs } = await all[i]!.start();
          steps.push({ what: `SIGTERM ${i}`, at, exitMs, readyMs });
          response.end('restarted');
        })().catch((error: unknown) => response.writeHead(500).end(String(error)));
      });
      await new Promise<void>((resolve) => control.listen(0, '127.0.0.1', () => resolve()));
      const controlPort = (control.address() as AddressInfo).port;
      try {
        let output = '';
        const script = spawn(path.join(root, 'deploy/rolling-restart'), [], {
          env: {
            ...process.env,
            UPSTREAMS_FILE: nginx.upstreamsFile,
            NGINX_COMMAND: nginx.command.join(' '),
            NGINX_PID_FILE: nginx.pidFile,
            RESTART_COMMAND: `curl -fsS -o /dev/null "http://127.0.0.1:${controlPort}/restart?port=$PORT"`,
          },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        script.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
        script.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
        const code = await new Promise<number | null>((resolve) => script.once('close', resolve));
        scriptOutput += output;
        if (code !== 0) throw new Error(`deploy/rolling-restart exited ${code}:\n${output}`);
      } finally {
        await new Promise((resolve) => control.close(resolve));
      }
    },
    log: async () => `${scriptOutput}${await nginx.log()}`,
    stop: nginx.stop,
  };
}

async function rollingRestart(
  context: HardenContext,
  kind: Kind,
  binary: string,
  redisUrl: string,
): Promise<HardenCheck[]> {
  const plan = context.quick ? PLAN.quick : PLAN.full;
  const database = await createScratchDatabase(context.postgresAdminUrl!);
  const sink = await startMailSinkProcess(context.root);
  const balancerPort = await freePort();
  const publicUrl = `http://127.0.0.1:${balancerPort}`;
  const ports: number[] = [];
  for (let i = 0; i < INSTANCES; i += 1) ports.push(await freePort());
  const env = (name: string): Record<string, string> => ({
    DATABASE_URL: database.url,
    REDIS_URL: redisUrl,
    SMTP_URL: sink.url,
    DATA_DIR: path.join(context.scratchDir, `${kind}-instance-${name}`),
    PUBLIC_URL: publicUrl,
    // The balancer on loopback is the only proxy: the client address is the one it forwards.
    TRUST_PROXY: 'loopback',
    AUTH_SECRET: 'harden-secret-harden-secret-harden-secret',
    STRIPE_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
    FORM_RATE_LIMIT: '100000000',
    MAIL_TIMEOUT_MS: '5000',
    // Behind HAProxy the production default (5 s) in both forms: its check needs about 2 s to
    // take an instance out. Behind nginx the script takes it out first: the CI form drains 3 s.
    DRAIN_SECONDS: kind === 'nginx' && context.quick ? '3' : '5',
    LOG_LEVEL: 'warn',
  });
  const instances: Instance[] = ports.map((port, i) => instance(context.root, port, env(`${i}`)));
  const pool = new pg.Pool({ connectionString: database.url, max: 2 });
  let balancer: Balancer | undefined;
  try {
    // The first start migrates the fresh database; the others then start together.
    await instances[0]!.start();
    await Promise.all(instances.slice(1).map((one) => one.start()));
    balancer = await (kind === 'haproxy' ? haproxyBalancer : nginxBalancer)(
      binary,
      context.root,
      balancerPort,
      instances,
    );

    const load = startMixedLoad(balancer.url, CONNECTIONS, `rolling-${kind}`);
    const loadStarted = Date.now();
    const steps: Step[] = [];
    let killAt = 0;
    let killedAt = 0;
    let claimedAtKill = 0;
    try {
      await sleep(plan.warmS * 1000);
      await balancer.restartAll(instances, steps, plan.gapS * 1000);
      await sleep(plan.gapS * 1000);
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
            balancer!.url,
            r.detail,
            r.email,
            signedEvent(JSON.parse(r.webhook!.payload)),
          ),
        ),
    );
    const delivery = await waitForMail(pool, sink, loadEnded);
    const stored = await storedRecords(pool);
    const report = judge({
      balancer: LABEL[kind],
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
      template: balancer.config,
    });
    // Kept for reading a failure: every instance's output and the balancer's log.
    const logFile = path.join(context.root, `harden/results/rolling-${kind}.log`);
    await mkdir(path.dirname(logFile), { recursive: true });
    await writeFile(
      logFile,
      [
        ...instances.map((one, i) => `== instance ${i}\n${one.output()}`),
        `== ${kind}\n${await balancer.log()}`,
      ].join('\n'),
    );
    return report;
  } finally {
    await balancer?.stop();
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

type Stored = {
  formEmails: Set<string>;
  /** Addresses of submissions stored twice (each load submission has an address of its own). */
  formsTwice: Set<string>;
  orderSessions: Set<string>;
};

async function storedRecords(pool: pg.Pool): Promise<Stored> {
  const formEmails = new Set<string>();
  const formsTwice = new Set<string>();
  for (const table of formTables) {
    const { rows } = await pool.query<{ email: string }>(`select email from ${table}`);
    for (const row of rows) {
      if (formEmails.has(row.email)) formsTwice.add(row.email);
      formEmails.add(row.email);
    }
  }
  const { rows } = await pool.query<{ session_id: string }>('select session_id from orders');
  return { formEmails, formsTwice, orderSessions: new Set(rows.map((row) => row.session_id)) };
}

const failedRequest = (r: LoadRequest) => r.status === 0 || r.status >= 500;
const describe = (r: LoadRequest) =>
  `${r.kind} ${r.status || r.error}${r.body ? ` "${r.body.slice(0, 60)}"` : ''}`;

function judge(run: {
  balancer: string;
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
  // A submission cut by the kill -9 after it was stored may be sent again by the balancer (as
  // a browser would): like an email twice around the kill, allowed there and nowhere else.
  const cutEmails = new Set(inFlightAtKill.map((r) => r.email));
  const twiceAtKill = [...stored.formsTwice].filter((email) => cutEmails.has(email));
  const twiceElsewhere = stored.formsTwice.size - twiceAtKill.length;
  const resent = rolling.filter((r) => r.resentAfter !== undefined);
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
        `ready ${Math.round(s.readyMs)} ms` +
        (s.backMs === undefined ? '' : `, back in ${Math.round(s.backMs)} ms`),
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
      check: `SIGTERM each of ${INSTANCES} instances in turn behind ${run.balancer}, ${CONNECTIONS} connections: no 5xx, no failed request`,
      result:
        `${rolling.length} requests ${perKind} in ${Math.round(run.loadS)} s of load, ` +
        `${rollingFailed.length} × 5xx or connection error${sample(rollingFailed)}; ` +
        `${resent.length} sent again after the balancer closed their kept-alive connection before any answer; ${stepsText}; ` +
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
        rolling_resent: resent.length,
        ...Object.fromEntries(
          run.steps.flatMap((s) => [
            ...(s.exitMs === undefined ? [] : [[`${s.what} exit_ms`, Math.round(s.exitMs)]]),
            [`${s.what} ready_ms`, Math.round(s.readyMs)],
            ...(s.backMs === undefined ? [] : [[`${s.what} back_ms`, Math.round(s.backMs)]]),
          ]),
        ),
        template: run.template,
      },
    },
    {
      check: `kill -9 of one instance behind ${run.balancer}: only requests in flight at the kill fail`,
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
      check: `every acknowledged submission and every 2xx-answered order stored (${run.balancer})`,
      result:
        `${acknowledged.length} submissions acknowledged, ${formsMissing.length} missing, ` +
        `${twiceElsewhere} stored twice (+${twiceAtKill.length} in flight at the kill, sent again by the balancer); ` +
        `${webhooks.length} webhook deliveries, ${webhooksLost.length} answered 2xx and lost, ` +
        `${webhooks5xxStored.length} answered 5xx though stored ` +
        `(+${stored5xx.length - webhooks5xxStored.length} in flight at the kill); ` +
        `${run.retried.length} redelivered, ${retriedStored.length} stored then; ` +
        `${ordersMissing.length} orders missing after the redelivery`,
      ok:
        acknowledged.length > 0 &&
        formsMissing.length === 0 &&
        twiceElsewhere === 0 &&
        webhooksLost.length === 0 &&
        webhooks5xxStored.length === 0 &&
        ordersMissing.length === 0,
      figures: {
        acknowledged: acknowledged.length,
        submissions_missing: formsMissing.length,
        submissions_twice: twiceElsewhere,
        submissions_twice_at_kill: twiceAtKill.length,
        webhooks: webhooks.length,
        webhooks_lost: webhooksLost.length,
        webhooks_5xx_stored: webhooks5xxStored.length,
        webhooks_redelivered: run.retried.length,
        orders_missing: ordersMissing.length,
      },
    },
    {
      check: `every queued email delivered within a minute after the load, none twice (${run.balancer})`,
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
