import pg from 'pg';
import { formKinds } from '../../src/shared/forms/form-fields';
import type { HardenCheck, HardenContext } from '../part';
import { startApp } from './app-process';
import { createTarget } from './database-target';
import { uniqueEmail } from './form-client';
import { queuedAndReceived } from './mail-key';
import { startMailSinkProcess } from './mail-sink-process';
import { submit, type LoadRequest } from './mixed-load';

const CONNECTIONS = 50;
const MAIL_TIMEOUT_MS = 3_000;
/** Seconds per message while the mail server is slow (within MAIL_TIMEOUT_MS). */
const SLOW_MS = 1_500;
/** Retries close enough that one falls within the minute after recovery, enough not to give up. */
const MAIL_RETRY_DELAYS = '1,2,4,8,15,30';
/** Every acknowledged email must have arrived this long after the mail server recovers. */
const DELIVERY_LIMIT_MS = 60_000;
/** Normal, slow, silent, and normal again with the load still on: seconds of each. */
const PHASES = { normalS: 2, slowS: 4, stallS: 8, recoveredS: 3 };

/**
 * A mail server that turns slow (1.5 s a message), then stops answering mid-message (and
 * greets no new connection) while 50 connections submit the five forms, then answers again:
 * every email of an acknowledged submission arrives within a minute of the recovery, none
 * twice, from the same server process (no restart). A worker whose sends stay stuck on the
 * silent connections fails it.
 */
export async function mailStall(context: HardenContext): Promise<HardenCheck> {
  const check =
    'mail server slow, then silent mid-message under 50 submitting connections, then back: ' +
    'every acknowledged email delivered within a minute, none twice, no restart';
  if (!context.postgresAdminUrl)
    return { check, result: 'skipped: set TEST_DATABASE_URL to run it', ok: true };
  const target = await createTarget(
    'postgres',
    context.scratchDir,
    'mail-stall',
    context.postgresAdminUrl,
  );
  const sink = await startMailSinkProcess(context.root);
  const pool = new pg.Pool({ connectionString: target.env.DATABASE_URL, max: 2 });
  try {
    const app = await startApp(context.root, {
      ...target.env,
      SMTP_URL: sink.url,
      MAIL_TIMEOUT_MS: String(MAIL_TIMEOUT_MS),
      MAIL_RETRY_DELAYS,
      FORM_RATE_LIMIT: '100000000',
    });
    const pid = app.child.pid;
    const requests: LoadRequest[] = [];
    let running = true;
    let turn = 0;
    const loops = Array.from({ length: CONNECTIONS }, async () => {
      while (running) {
        turn += 1;
        const form = formKinds[turn % formKinds.length]!;
        requests.push(await submit(app.url, form, uniqueEmail(`stall-${form}`)));
      }
    });
    let recoveredAt = 0;
    let arrival: Arrival;
    try {
      await sleep(PHASES.normalS * 1000);
      await sink.setMode('slow', SLOW_MS);
      await sleep(PHASES.slowS * 1000);
      await sink.setMode('stall');
      await sleep(PHASES.stallS * 1000);
      await sink.setMode('normal');
      recoveredAt = Date.now();
      await sleep(PHASES.recoveredS * 1000);
    } finally {
      running = false;
      await Promise.all(loops);
    }
    try {
      arrival = await waitForArrival(pool, sink, recoveredAt);
    } finally {
      await app.stop();
    }
    const sameProcess = app.child.pid === pid && !/exited before|Shutdown took/.test(app.output());
    const acknowledged = requests.filter((r) => r.acknowledged);
    // An owner's notification names the visitor as its Reply-To; the free guide goes to them.
    const { rows } = await pool.query<{ reply_to: string | null; recipient: string }>(
      'select reply_to, recipient from mail_deliveries',
    );
    const queuedFor = new Set(rows.flatMap((row) => [row.reply_to, row.recipient]));
    const notQueued = acknowledged.filter((r) => !queuedFor.has(r.email!)).length;
    const failed = requests.filter((r) => r.status === 0 || r.status >= 500).length;
    const ok =
      acknowledged.length > 0 &&
      notQueued === 0 &&
      arrival.queued > 0 &&
      arrival.missing === 0 &&
      arrival.twice === 0 &&
      arrival.unsent === 0 &&
      sameProcess;
    return {
      check,
      result:
        `${requests.length} submits, ${acknowledged.length} acknowledged (${failed} × 5xx or ` +
        `error), ${notQueued} without a queued email; ${arrival.queued} emails queued, ` +
        `${arrival.queued - arrival.missing} arrived, ${arrival.missing} missing, ` +
        `${arrival.unsent} not marked sent, ${arrival.twice} twice ` +
        `(${arrival.twiceLate} with a copy taken after the app had hung up on it), ` +
        `${arrival.missing === 0 && arrival.unsent === 0 ? 'all' : 'last'} within ` +
        `${(arrival.ms / 1000).toFixed(1)} s of recovery` +
        (sameProcess ? '' : '; the server process did not stay up'),
      ok,
      figures: {
        connections: CONNECTIONS,
        submits: requests.length,
        acknowledged: acknowledged.length,
        failed_requests: failed,
        not_queued: notQueued,
        queued: arrival.queued,
        missing: arrival.missing,
        unsent: arrival.unsent,
        twice: arrival.twice,
        twice_late: arrival.twiceLate,
        delivered_after_recovery_ms: arrival.ms,
      },
    };
  } finally {
    await pool.end();
    await sink.close();
    await target.dispose();
  }
}

type Arrival = {
  queued: number;
  missing: number;
  unsent: number;
  twice: number;
  /** Of those twice, how many had a copy taken after the app had hung up on it. */
  twiceLate: number;
  ms: number;
};

/** Waits until every queued email arrived and is marked sent, or DELIVERY_LIMIT_MS. */
async function waitForArrival(
  pool: pg.Pool,
  sink: Awaited<ReturnType<typeof startMailSinkProcess>>,
  recoveredAt: number,
): Promise<Arrival> {
  for (;;) {
    const { queued, received } = await queuedAndReceived(pool, sink);
    const missing = queued.filter((one) => !received.has(one.key)).length;
    const unsent = queued.filter((one) => !one.sent).length;
    const twiceKeys = [...received].filter(([, times]) => times.length > 1).map(([key]) => key);
    const ms = Date.now() - recoveredAt;
    if ((missing === 0 && unsent === 0) || ms > DELIVERY_LIMIT_MS) {
      const late = await sink.late();
      return {
        queued: queued.length,
        missing,
        unsent,
        twice: twiceKeys.length,
        twiceLate: twiceKeys.filter((key) => late.has(key)).length,
        ms,
      };
    }
    await sleep(250);
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
