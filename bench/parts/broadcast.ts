import nodemailer from 'nodemailer';
import path from 'node:path';
import { freePort } from '../../tests/support/free-port';
import {
  benchDraft,
  broadcastAction,
  createBroadcast,
  previewBroadcast,
  setSender,
} from '../lib/broadcast-admin';
import { createScratchDatabase } from '../lib/postgres';
import { startBenchServer, type BenchServer } from '../lib/processes';
import { startRecipientSink, type RecipientSink } from '../lib/recipient-sink';
import { postJson } from '../lib/sign-in';
import { sizes } from '../lib/sizes';
import { round } from '../lib/stats';
import type { StoreAdmin } from '../lib/store-admin';
import { pageP99 } from './list';

/**
 * Confirmed subscribers (the broadcast's audience), the seconds each side is timed after its
 * warm-up against the mail server answering at once and 150 ms late, and the page requests
 * timed idle and again while the broadcast sends. Every side is a rate over a window of a
 * broadcast that is still sending when the window ends (checked).
 */
const SIZES = {
  full: { subscribers: 100_000, warmUpS: 5, instantS: 20, slowS: 20, idlePages: 200 },
  quick: { subscribers: 4_000, warmUpS: 1, instantS: 2, slowS: 3, idlePages: 50 },
};
/** What a remote SMTP provider takes per message (as in the submit part). */
const PROVIDER_DELAY_MS = 150;
/**
 * SMTP connections of the plain loop: as many as the list sender keeps sends in flight on the
 * server's pooled transport (src/server/broadcasts/list-sender.ts: the transport's 10 parallel
 * sends less the one left for order mail, codes and form notifications).
 */
export const PLAIN_CONNECTIONS = 9;
const ADMIN = 'owner@example.com';

/** Messages the mail server accepted over a timed window after a warm-up. */
type Window = { messages: number; seconds: number; messages_per_second: number };

export type BroadcastResult = {
  subscribers: number;
  connections: number;
  /** The broadcast to a mail server that answers at once. */
  messages_per_second: number;
  plain_messages_per_second: number;
  ratio_to_plain: number;
  rss_before_mb: number;
  rss_growth_mb: number;
  page_idle_p99_ms: number;
  page_during_p99_ms: number;
  page_p99_ratio: number;
  /** Seconds from the send until the mail server had the first message. */
  first_message_s: number;
  instant: { broadcast: Window; plain: Window };
  /** Both again with the provider answering each message 150 ms late. */
  smtp_150ms: {
    messages_per_second: number;
    plain_messages_per_second: number;
    ratio_to_plain: number;
    window_s: number;
  };
};

/**
 * A broadcast to `subscribers` confirmed subscribers through the real server (its routes, its
 * sending engine) to a mail server in a process of its own, beside a plain pooled nodemailer
 * loop sending the same messages to the same addresses and server from this process at the
 * same connection count, each timed over a window after a warm-up with nothing else asked of
 * either (the plain loop has no pages to serve). Then, the broadcast still sending, the page's
 * p99 over as many requests as when idle; the server's RSS is sampled from the send to then.
 * Then both again with each message answered 150 ms late. Each broadcast is cancelled after.
 */
export async function benchBroadcast(
  root: string,
  dataDir: string,
  postgresAdminUrl?: string,
): Promise<BroadcastResult> {
  const { subscribers, warmUpS, instantS, slowS, idlePages } = sizes(SIZES);
  const scratch = postgresAdminUrl ? await createScratchDatabase(postgresAdminUrl) : undefined;
  const sink = await startRecipientSink(root);
  let server: BenchServer | undefined;
  try {
    const port = await freePort();
    server = await startBenchServer(['--import', 'tsx', path.join(root, 'bench/bench-server.ts')], {
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: dataDir,
      AUTH_SECRET: 'bench-secret-bench-secret-bench-secret',
      SMTP_URL: sink.url,
      ADMIN_EMAILS: ADMIN,
      // The bench measures the engine, not the provider's allowance.
      MAIL_RATE_PER_SECOND: '100000',
      ...(scratch ? { DATABASE_URL: scratch.url } : {}),
    });
    const admin: StoreAdmin = { url: server.url, cookie: await sink.signIn(server.url, ADMIN) };
    await setSender(admin);
    await postJson(server.url, '/__bench/list/fill', { rows: subscribers });
    const draft = benchDraft('News from the bench');
    const preview = await previewBroadcast(admin, draft);
    const plainMessage = (i: number): PlainMessage => {
      const n = (i % subscribers) + 1;
      return {
        from: `Bench Owner <${ADMIN}>`,
        to: `bulk${n}@scale.test`,
        subject: preview.subject,
        html: preview.html.replaceAll('Alex', `Bulk ${n}`),
        text: preview.text.replaceAll('Alex', `Bulk ${n}`),
        headers: {
          'List-Unsubscribe': `<${server!.url}/list/unsubscribe/x${i}>`,
          'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
        },
      };
    };

    // The page's first answers after the start are slow (code not yet compiled): not idle.
    await pageP99(server.url, () => true, idlePages);
    const idle = await pageP99(server.url, () => true, idlePages);

    // A provider that answers at once.
    await sink.reset();
    const before = await server.rssMb();
    let peak = before;
    let sending = true;
    const sampler = (async () => {
      while (sending) {
        peak = Math.max(peak, await server!.rssMb());
        await sleep(50);
      }
    })();
    const sent = performance.now();
    const id = await createBroadcast(admin, draft);
    await broadcastAction(admin, id, 'send');
    let instant: Window;
    let firstMessageS: number;
    let during: number;
    try {
      firstMessageS = round((await untilFirst(sink, sent)) / 1000, 1);
      instant = await windowRate(sink, warmUpS, instantS);
      during = await pageP99(server.url, () => true, idlePages);
      if ((await sink.total()) >= subscribers) {
        throw new Error('The broadcast ended before its pages were timed: more subscribers');
      }
    } finally {
      sending = false;
    }
    await sampler;
    await broadcastAction(admin, id, 'cancel');
    await untilQuiet(sink);

    await sink.reset();
    const plain = await plainRate(sink, plainMessage, warmUpS, instantS);
    await untilQuiet(sink);

    // A provider that takes 150 ms a message.
    await sink.delayEach(PROVIDER_DELAY_MS);
    await sink.reset();
    const slowId = await createBroadcast(admin, benchDraft('News from the bench, slowly'));
    await broadcastAction(admin, slowId, 'send');
    await untilFirst(sink, performance.now());
    const slowBroadcast = await windowRate(sink, warmUpS, slowS);
    await broadcastAction(admin, slowId, 'cancel');
    await untilQuiet(sink);

    await sink.reset();
    const slowPlain = await plainRate(sink, plainMessage, warmUpS, slowS);
    await untilQuiet(sink);

    return {
      subscribers,
      connections: PLAIN_CONNECTIONS,
      messages_per_second: instant.messages_per_second,
      plain_messages_per_second: plain.messages_per_second,
      ratio_to_plain: round(instant.messages_per_second / plain.messages_per_second, 2),
      rss_before_mb: round(before, 0),
      rss_growth_mb: round(peak - before, 1),
      page_idle_p99_ms: idle,
      page_during_p99_ms: during,
      page_p99_ratio: round(during / idle, 2),
      first_message_s: firstMessageS,
      instant: { broadcast: instant, plain },
      smtp_150ms: {
        messages_per_second: slowBroadcast.messages_per_second,
        plain_messages_per_second: slowPlain.messages_per_second,
        ratio_to_plain: round(slowBroadcast.messages_per_second / slowPlain.messages_per_second, 2),
        window_s: slowS,
      },
    };
  } catch (error) {
    if (server) console.error(server.output().slice(-4000));
    throw error;
  } finally {
    await server?.stop();
    await sink.close();
    await scratch?.drop();
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Milliseconds from `started` until the mail server has a message (a minute at most). */
async function untilFirst(sink: RecipientSink, started: number): Promise<number> {
  for (;;) {
    const elapsed = performance.now() - started;
    if ((await sink.total()) > 0) return elapsed;
    if (elapsed > 60_000) throw new Error('No message reached the mail server within 60 s');
    await sleep(20);
  }
}

/** Until the mail server took nothing new for a second (the sends in flight answered). */
async function untilQuiet(sink: RecipientSink) {
  let last = -1;
  for (;;) {
    const total = await sink.total();
    if (total === last) return;
    last = total;
    await sleep(1000);
  }
}

/** Messages the mail server accepted over `windowS` after `warmUpS`. */
async function windowRate(sink: RecipientSink, warmUpS: number, windowS: number): Promise<Window> {
  await sleep(warmUpS * 1000);
  const from = await sink.total();
  const started = performance.now();
  await sleep(windowS * 1000);
  const messages = (await sink.total()) - from;
  const seconds = (performance.now() - started) / 1000;
  return {
    messages,
    seconds: round(seconds, 1),
    messages_per_second: round(messages / seconds, 1),
  };
}

type PlainMessage = {
  from: string;
  to: string;
  subject: string;
  html: string;
  text: string;
  headers: Record<string, string>;
};

/**
 * The floor: nodemailer's pool with PLAIN_CONNECTIONS connections to the mail server, twice
 * as many messages queued as it has connections so that none waits for the next, the
 * subscribers in turn; its rate over the same window as the broadcast's.
 */
async function plainRate(
  sink: RecipientSink,
  message: (i: number) => PlainMessage,
  warmUpS: number,
  windowS: number,
): Promise<Window> {
  const transporter = nodemailer.createTransport({
    url: sink.url,
    pool: true,
    maxConnections: PLAIN_CONNECTIONS,
    maxMessages: Infinity,
  });
  let next = 0;
  let stopped = false;
  const worker = async () => {
    while (!stopped) {
      const i = next;
      next += 1;
      await transporter.sendMail(message(i));
    }
  };
  const loops = Promise.all(Array.from({ length: PLAIN_CONNECTIONS * 2 }, worker));
  try {
    return await Promise.race([
      windowRate(sink, warmUpS, windowS),
      loops.then(() => {
        throw new Error('The plain loop stopped before its window ended');
      }),
    ]);
  } finally {
    stopped = true;
    await loops.catch(() => undefined);
    transporter.close();
  }
}
