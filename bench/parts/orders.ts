import { createHash, randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import {
  checkoutSession,
  signedEvent,
  stripeEvent,
  TEST_WEBHOOK_SECRET,
} from '../../tests/support/stripe-events';
import { WEBHOOK_PATH } from '../../src/server/orders/order-routes';
import type { OrderTally } from '../orders-bench-routes';
import { checkOrders, type OrdersCheck } from '../lib/orders-check';
import { createScratchDatabase } from '../lib/postgres';
import { startBenchServer, type BenchServer } from '../lib/processes';
import { startSinkProcess } from '../lib/smtp-sink-process';
import { sizes } from '../lib/sizes';
import { median, round } from '../lib/stats';
import { BARE_ROUTE, CONNECTIONS, drain, load, postLoad, type LoadResult } from './submit';

/** A paid order queues the buyer's receipt and the owner's note. */
const EMAILS_PER_ORDER = 2;

/**
 * Seconds of each load; how long the bench waits for the webhook load's emails before the
 * replay; the file's size; and the download rounds: concurrent clients, and how many downloads
 * each makes in one half of a round (a round is static, link, link, static, so a machine
 * getting busier or quieter favours neither).
 */
const SIZES = {
  full: {
    loadS: 5,
    warmUpS: 2,
    drainMs: 30_000,
    fileBytes: 50_000_000,
    downloadRounds: [
      { clients: 1, each: 3 },
      { clients: 8, each: 1 },
    ],
  },
  quick: {
    loadS: 1,
    warmUpS: 1,
    drainMs: 5_000,
    fileBytes: 5_000_000,
    downloadRounds: [{ clients: 2, each: 1 }],
  },
};
const MB = 1_000_000;
const RSS_SAMPLE_MS = 25;

type WebhookLoad = LoadResult & { ratio_to_bare: number; p99_ratio_to_bare: number };

type DownloadRound = {
  downloads: number;
  mb_per_s: number;
  /** Median and slowest single download. */
  p50_ms: number;
  max_ms: number;
  /** The server's peak RSS during the round over its RSS just before it. */
  rss_growth_mb: number;
};

export type OrdersResults = {
  bare: LoadResult;
  /** A new paid session per delivery: an order, a link, two queued emails each. */
  webhook: WebhookLoad & { drain_s: number; left: number };
  /** One event delivered again and again: the first fulfils, the rest are replays. */
  replay: WebhookLoad;
  check: OrdersCheck;
  downloads: {
    file_mb: number;
    rounds: { clients: number; link: DownloadRound; static: DownloadRound; ratio: number }[];
  };
};

let sequence = 0;

/**
 * Signed checkout.session.completed events on the webhook: with `replayed` the same event
 * every time, else a new paid session per request. Adds every session answered 2xx to
 * `answered`.
 */
function webhookLoad(
  url: string,
  durationS: number,
  answered: Set<string>,
  replayed?: { sessionId: string; payload: string; headers: Record<string, string> },
): Promise<LoadResult> {
  return postLoad(
    url,
    WEBHOOK_PATH,
    durationS,
    () => {
      if (replayed) {
        return { key: replayed.sessionId, body: replayed.payload, headers: replayed.headers };
      }
      sequence += 1;
      const session = checkoutSession({
        customer_details: {
          email: `buyer-${process.pid}-${sequence}@example.com`,
          name: 'Bench Buyer',
        },
      });
      const { payload, headers } = signedEvent(stripeEvent('checkout.session.completed', session));
      return { key: session.id, body: payload, headers };
    },
    (sessionId) => answered.add(sessionId),
  );
}

/** A file of random bytes, and its SHA-256. */
async function randomFile(file: string, size: number): Promise<string> {
  const bytes = randomBytes(size);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, bytes);
  return createHash('sha256').update(bytes).digest('hex');
}

let address = 0;

/**
 * A loopback address not used before: each download comes from a client of its own, as
 * buyers do, so the download route's limit per address does not answer 429.
 */
function nextClientAddress(): string {
  address += 1;
  return `127.9.${Math.floor(address / 250) % 250}.${1 + (address % 250)}`;
}

/**
 * GETs `url` on a new connection and reads the whole body: its length, the milliseconds
 * taken and, with `hash`, its SHA-256. Anything but a 200 fails.
 */
export function download(
  url: string,
  hash = false,
): Promise<{ bytes: number; ms: number; sha256?: string }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const request = http.get(
      url,
      {
        agent: false,
        localAddress: nextClientAddress(),
        headers: { 'accept-encoding': 'identity' },
      },
      (response) => {
        if (response.statusCode !== 200) {
          response.resume();
          reject(
            new Error(
              `GET ${url} answered ${response.statusCode} ${response.headers.location ?? ''}`,
            ),
          );
          return;
        }
        const digest = hash ? createHash('sha256') : undefined;
        let bytes = 0;
        response.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          digest?.update(chunk);
        });
        response.on('error', reject);
        response.on('end', () =>
          resolve({
            bytes,
            ms: performance.now() - started,
            ...(digest && { sha256: digest.digest('hex') }),
          }),
        );
      },
    );
    request.on('error', reject);
  });
}

export type DownloadHalf = {
  times: number[];
  seconds: number;
  rssBeforeMb: number;
  rssGrowthMb: number;
};

/**
 * `clients` concurrent clients, each downloading `each` times from `urlOf(client)`, while the
 * server's RSS is sampled. Every body must be the file's length.
 */
export async function downloadHalf(
  server: BenchServer,
  clients: number,
  each: number,
  urlOf: (client: number) => string,
  fileBytes: number,
): Promise<DownloadHalf> {
  const before = await server.rssMb();
  let peak = before;
  const sampler = setInterval(() => {
    void server.rssMb().then((mb) => (peak = Math.max(peak, mb)));
  }, RSS_SAMPLE_MS);
  const times: number[] = [];
  const started = performance.now();
  try {
    await Promise.all(
      Array.from({ length: clients }, async (_, client) => {
        for (let i = 0; i < each; i += 1) {
          const { bytes, ms } = await download(urlOf(client));
          if (bytes !== fileBytes) {
            throw new Error(`${urlOf(client)} sent ${bytes} bytes of ${fileBytes}`);
          }
          times.push(ms);
        }
      }),
    );
  } finally {
    clearInterval(sampler);
  }
  const seconds = (performance.now() - started) / 1000;
  peak = Math.max(peak, await server.rssMb());
  return { times, seconds, rssBeforeMb: before, rssGrowthMb: peak - before };
}

/** Both halves of one side of a round as one figure. */
function downloadRound(halves: DownloadHalf[], fileBytes: number): DownloadRound {
  const times = halves.flatMap((half) => half.times);
  const seconds = halves.reduce((sum, half) => sum + half.seconds, 0);
  return {
    downloads: times.length,
    mb_per_s: round((times.length * fileBytes) / MB / seconds),
    p50_ms: round(median(times)),
    max_ms: round(Math.max(...times)),
    rss_growth_mb: round(Math.max(...halves.map((half) => half.rssGrowthMb)), 1),
  };
}

/**
 * The orders side of the real server (bench-server.ts, BUNDLE_FILE a 50 MB random file,
 * DOWNLOAD_LIMIT 1000) with its emails going to a mail server in a process of its own:
 * 1. 50 connections for 10 s on the bare submit route, then on the webhook with a new signed
 *    paid session per delivery (each fulfils: order, link, two queued emails), then, once
 *    those emails are delivered, the same event replayed; then every order is checked in the
 *    database (checkOrders).
 * 2. The file downloaded through download links and, as the floor, from @fastify/static on the
 *    same server, by 1 and 8 concurrent clients in the order static, link, link, static, each
 *    download on a new connection; every body's length checked, and one of each path's SHA-256.
 */
export async function benchOrders(
  root: string,
  dataDir: string,
  postgresAdminUrl?: string,
  /** Whose bench server runs (another release's checkout, for a reference). */
  serverRoot = root,
): Promise<OrdersResults> {
  const staticDir = path.join(dataDir, 'static');
  const file = path.join(staticDir, 'bundle.zip');
  const { loadS, warmUpS, drainMs, fileBytes, downloadRounds } = sizes(SIZES);
  const sha256 = await randomFile(file, fileBytes);
  const scratch = postgresAdminUrl ? await createScratchDatabase(postgresAdminUrl) : undefined;
  const sink = await startSinkProcess(root);
  let server: BenchServer | undefined;
  try {
    server = await startBenchServer(
      ['--import', 'tsx', path.join(serverRoot, 'bench/bench-server.ts')],
      {
        DATA_DIR: path.join(dataDir, 'data'),
        AUTH_SECRET: 'bench-secret-bench-secret-bench-secret',
        SMTP_URL: sink.url,
        STRIPE_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
        BUNDLE_FILE: file,
        DOWNLOAD_LIMIT: '1000',
        BENCH_STATIC_DIR: staticDir,
        ...(scratch ? { DATABASE_URL: scratch.url } : {}),
      },
    );
    const { url } = server;
    const answered = new Set<string>();
    const emailsDue = () => answered.size * EMAILS_PER_ORDER;

    // Warm-up: JIT, connection pools, caches.
    await webhookLoad(url, warmUpS, answered);
    await load(url, BARE_ROUTE, warmUpS);
    await drain(sink, emailsDue(), drainMs);

    const bare = await load(url, BARE_ROUTE, loadS);
    const fresh = await webhookLoad(url, loadS, answered);
    const drained = await drain(sink, emailsDue(), drainMs);

    const session = checkoutSession();
    const event = signedEvent(stripeEvent('checkout.session.completed', session));
    const replay = await webhookLoad(url, loadS, answered, {
      sessionId: session.id,
      ...event,
    });
    if (replay.answered < 2) throw new Error('The replayed event was not answered twice');

    // Errors (timeouts, non-2xx) are reported in the table rather than ending the run: the
    // PGlite reference times out at 10 s under this load when the machine is busy.
    const tally = (await (await fetch(`${url}/__bench/orders`)).json()) as {
      orders: OrderTally[];
      events: number;
    };
    const check = checkOrders(tally.orders, tally.events, answered, {
      emailsPerOrder: EMAILS_PER_ORDER,
      // Deliveries of the warm-up and the main load still in flight when each stopped, and
      // those the load generator gave up waiting for (stored, answered too late).
      inFlightLimit: 2 * CONNECTIONS + fresh.errors,
    });

    const maxClients = Math.max(...downloadRounds.map((r) => r.clients));
    const linksAnswer = await fetch(`${url}/__bench/download-links`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ count: maxClients }),
    });
    const { tokens } = (await linksAnswer.json()) as { tokens: string[] };
    const linkUrl = (client: number) => `${url}/download/${tokens[client]}`;
    const staticUrl = `${url}/__bench/static/${path.basename(file)}`;
    for (const source of [linkUrl(0), staticUrl]) {
      const got = await download(source, true);
      if (got.sha256 !== sha256) throw new Error(`${source} sent other bytes than the file`);
    }
    const rounds = [];
    for (const { clients, each } of downloadRounds) {
      const half = (urlOf: (client: number) => string) =>
        downloadHalf(server!, clients, each, urlOf, fileBytes);
      const staticFirst = await half(() => staticUrl);
      const linkFirst = await half(linkUrl);
      const linkSecond = await half(linkUrl);
      const staticSecond = await half(() => staticUrl);
      const floor = downloadRound([staticFirst, staticSecond], fileBytes);
      const link = downloadRound([linkFirst, linkSecond], fileBytes);
      rounds.push({
        clients,
        link,
        static: floor,
        ratio: round(link.mb_per_s / floor.mb_per_s, 2),
      });
    }

    const compared = (result: LoadResult): WebhookLoad => ({
      ...result,
      ratio_to_bare: round(result.rps / bare.rps, 2),
      p99_ratio_to_bare: round(result.p99_ms / bare.p99_ms, 2),
    });
    return {
      bare,
      webhook: { ...compared(fresh), drain_s: drained.s, left: drained.left },
      replay: compared(replay),
      check,
      downloads: { file_mb: fileBytes / MB, rounds },
    };
  } finally {
    await server?.stop();
    await sink.close();
    await scratch?.drop();
  }
}
