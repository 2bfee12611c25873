import autocannon from 'autocannon';
import path from 'node:path';
import { createScratchDatabase } from '../lib/postgres';
import { startBenchServer } from '../lib/processes';
import { startSinkProcess, type SinkProcess } from '../lib/smtp-sink-process';
import { sizes } from '../lib/sizes';
import { round } from '../lib/stats';

/** The order form's submit route and the bench-only floor beside it. */
export const ORDER_ROUTE = '/api/forms/order';
export const BARE_ROUTE = '/__bench/bare-submit';

/**
 * Seconds of each load and the waits for the mail server. A provider that takes 150 ms a
 * message drains at most pool size ÷ 0.15 s, so its wait is shorter: what is left is reported,
 * and the delivered rate is the same over 10 s as over 30.
 */
const SIZES = {
  full: { loadS: 5, warmUpS: 2, drainMs: 30_000, slowDrainMs: 10_000 },
  quick: { loadS: 1, warmUpS: 1, drainMs: 5_000, slowDrainMs: 1_000 },
};
/** The connections of every load (postLoad): each may leave one request unanswered at its end. */
export const CONNECTIONS = 50;

export type LoadResult = {
  rps: number;
  p50_ms: number;
  p99_ms: number;
  /** The slowest answer: whether some requests waited for most of the load. */
  max_ms: number;
  errors: number;
  /** Answered with a 2xx. */
  answered: number;
};
/** What a remote SMTP provider takes per message (DESIGN.md "Mail delivery"). */
const PROVIDER_DELAY_MS = 150;

/** A load on the submit route, and how long its emails took to be delivered. */
type SubmitLoad = LoadResult & {
  ratio_to_bare: number;
  p99_ratio_to_bare: number;
  /** Seconds from the end of the load until the mail server had every email, or the limit. */
  drain_s: number;
  /** Emails still queued when the bench stopped waiting (0: all delivered). */
  left: number;
  /** Emails delivered per second of load plus drain. */
  delivered_per_s: number;
  delivered_ratio_to_bare: number;
};

export type SubmitResults = SubmitLoad & {
  bare: LoadResult;
  /** The same submit against a mail server that answers each message 150 ms late. */
  smtp_150ms: SubmitLoad;
};

let sequence = 0;

/**
 * One request of a load: its body and headers, a key to report when it is answered, and its
 * own path if it is not the load's route.
 */
export type Post = { body: string; headers?: Record<string, string>; key?: string; path?: string };

/**
 * autocannon POSTs to one route from CONNECTIONS connections for `durationS`, each request
 * made by `next`; `onAnswered` gets the key of every request answered with a 2xx.
 */
export async function postLoad(
  url: string,
  route: string,
  durationS: number,
  next: () => Post,
  onAnswered?: (key: string) => void,
): Promise<LoadResult> {
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: durationS,
    requests: [
      {
        method: 'POST',
        path: route,
        setupRequest: (request, context: { key?: string }) => {
          const post = next();
          context.key = post.key;
          return {
            ...request,
            ...(post.path !== undefined && { path: post.path }),
            body: post.body,
            headers: { ...request.headers, ...post.headers },
          };
        },
        onResponse: (status, _body, context: { key?: string }) => {
          if (status >= 200 && status < 300 && context.key) onAnswered?.(context.key);
        },
      },
    ],
  });
  return loadResult(result);
}

/** Form submissions on one route, every request with an email never used before. */
export function load(url: string, route: string, durationS: number): Promise<LoadResult> {
  return postLoad(url, route, durationS, () => {
    sequence += 1;
    return {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Bench Visitor',
        email: `bench-${process.pid}-${sequence}@example.com`,
        message: 'I would like to know more about the bundle.',
      }),
    };
  });
}

export function loadResult(result: autocannon.Result): LoadResult {
  return {
    rps: round(result.requests.average),
    p50_ms: result.latency.p50,
    p99_ms: result.latency.p99,
    max_ms: result.latency.max,
    errors: result.errors + result.timeouts + result.non2xx,
    answered: result['2xx'],
  };
}

/**
 * Waits until the mail server has received `expected` messages or `limitMs` passed: the
 * seconds waited, and how many were still to come.
 */
export async function drain(
  sink: SinkProcess,
  expected: number,
  limitMs = 30_000,
): Promise<{ s: number; left: number }> {
  const started = performance.now();
  for (;;) {
    const left = expected - (await sink.count());
    const waited = performance.now() - started;
    if (left <= 0 || waited > limitMs) return { s: round(waited / 1000, 2), left };
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * The real order submit (validation, duplicate check, insert with its queued email, answered
 * at once; the delivery worker sends the email over pooled SMTP to a mail server in a process
 * of its own and records it) against a route of the same server running only the three SQL
 * statements of a submission; then again with the mail server answering each message 150 ms
 * late. Each submit load is followed by the wait until every one of its emails arrived, so the
 * delivered rate counts the work the answer left to the worker; the bare route runs on an
 * empty queue.
 */
export async function benchSubmit(
  root: string,
  dataDir: string,
  postgresAdminUrl?: string,
  /** Whose bench server runs (another release's checkout, for a reference). */
  serverRoot = root,
): Promise<SubmitResults> {
  const scratch = postgresAdminUrl ? await createScratchDatabase(postgresAdminUrl) : undefined;
  const sink = await startSinkProcess(root);
  const server = await startBenchServer(
    ['--import', 'tsx', path.join(serverRoot, 'bench/bench-server.ts')],
    {
      DATA_DIR: dataDir,
      AUTH_SECRET: 'bench-secret-bench-secret-bench-secret',
      FORM_RATE_LIMIT: '1000000000',
      SMTP_URL: sink.url,
      ...(scratch ? { DATABASE_URL: scratch.url } : {}),
    },
  );
  const { loadS, warmUpS, drainMs, slowDrainMs } = sizes(SIZES);
  let expected = 0;
  const submitLoad = async (limitMs: number) => {
    const result = await load(server.url, ORDER_ROUTE, loadS);
    expected += result.answered;
    return { result, drained: await drain(sink, expected, limitMs) };
  };
  try {
    // Warm-up: JIT, connection pools, caches.
    expected += (await load(server.url, ORDER_ROUTE, warmUpS)).answered;
    await drain(sink, expected, drainMs);
    const real = await submitLoad(drainMs);
    const bare = await load(server.url, BARE_ROUTE, loadS);
    await sink.delayEach(PROVIDER_DELAY_MS);
    const slow = await submitLoad(slowDrainMs);
    const compared = ({ result, drained }: Awaited<ReturnType<typeof submitLoad>>) => {
      const delivered = (result.answered - drained.left) / (loadS + drained.s);
      return {
        ...result,
        ratio_to_bare: round(result.rps / bare.rps, 2),
        p99_ratio_to_bare: round(result.p99_ms / bare.p99_ms, 2),
        drain_s: drained.s,
        left: drained.left,
        delivered_per_s: round(delivered),
        delivered_ratio_to_bare: round(delivered / bare.rps, 2),
      };
    };
    return { ...compared(real), bare, smtp_150ms: compared(slow) };
  } finally {
    await server.stop();
    await sink.close();
    await scratch?.drop();
  }
}
