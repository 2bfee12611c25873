import nodemailer from 'nodemailer';
import path from 'node:path';
import { freePort } from '../../tests/support/free-port';
import {
  benchDraft,
  broadcastAction,
  createBroadcast,
  getBroadcast,
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
 * Confirmed subscribers (the broadcast's audience), the seconds the 150 ms provider is timed
 * after a warm-up, the idle page's requests, and how long a whole broadcast may take.
 */
const SIZES = {
  full: { subscribers: 100_000, warmUpS: 3, slowS: 20, idlePages: 200, limitS: 1200 },
  quick: { subscribers: 2_000, warmUpS: 1, slowS: 3, idlePages: 50, limitS: 120 },
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

type Side = {
  messages: number;
  seconds: number;
  messages_per_second: number;
};

export type BroadcastResult = {
  subscribers: number;
  connections: number;
  /** The broadcast to a mail server that answers at once, sent to every subscriber. */
  messages_per_second: number;
  plain_messages_per_second: number;
  ratio_to_plain: number;
  rss_before_mb: number;
  rss_growth_mb: number;
  page_idle_p99_ms: number;
  page_during_p99_ms: number;
  page_p99_ratio: number;
  instant: { broadcast: Side; plain: Side };
  /** Both again with the provider answering each message 150 ms late, over a timed window. */
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
 * loop sending the same messages to the same server from this process at the same connection
 * count; the server's RSS sampled and a page's p99 while it sends beside the idle page's. Then
 * both again with each message answered 150 ms late, timed over a window after a warm-up (at
 * 150 ms a message the whole audience would take minutes), the broadcast cancelled after it.
 */
export async function benchBroadcast(
  root: string,
  dataDir: string,
  postgresAdminUrl?: string,
): Promise<BroadcastResult> {
  const { subscribers, warmUpS, slowS, idlePages, limitS } = sizes(SIZES);
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
    const addresses = Array.from({ length: subscribers }, (_, i) => ({
      email: `bulk${i + 1}@scale.test`,
      name: `Bulk ${i + 1}`,
    }));
    const draft = benchDraft('News from the bench');
    const preview = await previewBroadcast(admin, draft);
    const plainMessage = (i: number) => {
      const { email, name } = addresses[i % addresses.length]!;
      return {
        from: `Bench Owner <${ADMIN}>`,
        to: email,
        subject: preview.subject,
        html: preview.html.replaceAll('Alex', name),
        text: preview.text.replaceAll('Alex', name),
        headers: {
          'List-Unsubscribe': `<${server!.url}/list/unsubscribe/x${i}>`,
          'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
        },
      };
    };

    // The page's first answers after the start are slow (code not yet compiled): not idle.
    await pageP99(server.url, () => true, idlePages);
    const idle = await pageP99(server.url, () => true, idlePages);

    // The whole audience, to a provider that answers at once.
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
    const started = performance.now();
    const id = await createBroadcast(admin, draft);
    await broadcastAction(admin, id, 'send');
    const duringPages = pageP99(server.url, () => !sending, 20);
    let broadcastMs: number;
    try {
      broadcastMs = await untilDelivered(sink, subscribers, started, limitS);
    } finally {
      sending = false;
    }
    const during = await duringPages;
    await sampler;
    await untilStatus(admin, id, 'sent', 30);
    const broadcastSide = side(subscribers, broadcastMs);

    await sink.reset();
    const plainSide = side(
      subscribers,
      await plainLoop(sink.url, subscribers, plainMessage, async (sent, plainStarted) => {
        await sent;
        return untilDelivered(sink, subscribers, plainStarted, limitS);
      }),
    );

    // A provider that takes 150 ms a message: the rate over a window after a warm-up.
    await sink.delayEach(PROVIDER_DELAY_MS);
    await sink.reset();
    const slowId = await createBroadcast(admin, benchDraft('News from the bench, slowly'));
    await broadcastAction(admin, slowId, 'send');
    const slowBroadcast = await windowRate(sink, warmUpS, slowS);
    await broadcastAction(admin, slowId, 'cancel');
    await untilQuiet(sink);

    await sink.reset();
    const slowPlain = await slowPlainRate(sink, plainMessage, warmUpS, slowS);
    await untilQuiet(sink);

    return {
      subscribers,
      connections: PLAIN_CONNECTIONS,
      messages_per_second: broadcastSide.messages_per_second,
      plain_messages_per_second: plainSide.messages_per_second,
      ratio_to_plain: round(broadcastSide.messages_per_second / plainSide.messages_per_second, 2),
      rss_before_mb: round(before, 0),
      rss_growth_mb: round(peak - before, 1),
      page_idle_p99_ms: idle,
      page_during_p99_ms: during,
      page_p99_ratio: round(during / idle, 2),
      instant: { broadcast: broadcastSide, plain: plainSide },
      smtp_150ms: {
        messages_per_second: slowBroadcast,
        plain_messages_per_second: slowPlain,
        ratio_to_plain: round(slowBroadcast / slowPlain, 2),
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

function side(messages: number, ms: number): Side {
  return {
    messages,
    seconds: round(ms / 1000, 1),
    messages_per_second: round(messages / (ms / 1000)),
  };
}

/** Milliseconds from `started` until the mail server has accepted `count` messages. */
async function untilDelivered(
  sink: RecipientSink,
  count: number,
  started: number,
  limitS: number,
): Promise<number> {
  for (;;) {
    const total = await sink.total();
    const elapsed = performance.now() - started;
    if (total >= count) return elapsed;
    if (elapsed > limitS * 1000)
      throw new Error(`${total} of ${count} messages arrived within ${limitS} s`);
    await sleep(100);
  }
}

/** Waits until the broadcast shows `status` (the engine's own record that it finished). */
async function untilStatus(admin: StoreAdmin, id: number, status: string, limitS: number) {
  const deadline = Date.now() + limitS * 1000;
  for (;;) {
    const broadcast = await getBroadcast(admin, id);
    if (broadcast.status === status) return broadcast;
    if (Date.now() > deadline)
      throw new Error(`Broadcast ${id} is ${broadcast.status}, not ${status}, after ${limitS} s`);
    await sleep(250);
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

/** Messages a second the mail server accepted over `windowS` after `warmUpS`. */
async function windowRate(sink: RecipientSink, warmUpS: number, windowS: number) {
  await sleep(warmUpS * 1000);
  const from = await sink.total();
  const started = performance.now();
  await sleep(windowS * 1000);
  const to = await sink.total();
  return round((to - from) / ((performance.now() - started) / 1000), 1);
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
 * The floor: nodemailer's pool with PLAIN_CONNECTIONS connections, as many messages queued as
 * it has connections twice over, `count` messages (or until `stop()`); resolves with
 * `finish(allSent, started)`'s answer, the transporter closed.
 */
async function plainLoop<T>(
  url: string,
  count: number,
  message: (i: number) => PlainMessage,
  finish: (allSent: Promise<void>, started: number) => Promise<T>,
  stop: () => boolean = () => false,
): Promise<T> {
  const transporter = nodemailer.createTransport({
    url,
    pool: true,
    maxConnections: PLAIN_CONNECTIONS,
    maxMessages: Infinity,
  });
  const started = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < count && !stop()) {
      const i = next;
      next += 1;
      await transporter.sendMail(message(i));
    }
  };
  const allSent = Promise.all(Array.from({ length: PLAIN_CONNECTIONS * 2 }, worker)).then(
    () => undefined,
  );
  try {
    return await finish(allSent, started);
  } finally {
    await allSent.catch(() => undefined);
    transporter.close();
  }
}

/** The plain loop's rate against the slow provider, over the same window as the broadcast's. */
async function slowPlainRate(
  sink: RecipientSink,
  message: (i: number) => PlainMessage,
  warmUpS: number,
  windowS: number,
): Promise<number> {
  let stopped = false;
  return plainLoop(
    sink.url,
    Number.MAX_SAFE_INTEGER,
    message,
    async () => {
      const rate = await windowRate(sink, warmUpS, windowS);
      stopped = true;
      return rate;
    },
    () => stopped,
  );
}
