import autocannon from 'autocannon';
import path from 'node:path';
import { startSmtpSink } from '../../tests/support/smtp-sink';
import { createScratchDatabase } from '../lib/postgres';
import { startBenchServer } from '../lib/processes';
import { round } from '../lib/stats';

/** The order form's submit route and the bench-only floor beside it. */
export const ORDER_ROUTE = '/api/forms/order';
const BARE_ROUTE = '/__bench/bare-submit';

const DURATION_S = 10;
const CONNECTIONS = 50;

type LoadResult = { rps: number; p50_ms: number; p99_ms: number; errors: number };
/** What a remote SMTP provider takes per message (DESIGN.md "Mail delivery"). */
const PROVIDER_DELAY_MS = 150;

export type SubmitResults = LoadResult & {
  ratio_to_bare: number;
  p99_ratio_to_bare: number;
  bare: LoadResult;
  /** The same submit against a mail server that answers each message 150 ms late. */
  smtp_150ms: LoadResult & { ratio_to_bare: number; p99_ratio_to_bare: number };
};

let sequence = 0;

/** autocannon against one route, every request with an email never used before. */
async function load(url: string, route: string, durationS: number): Promise<LoadResult> {
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: durationS,
    requests: [
      {
        method: 'POST',
        path: route,
        headers: { 'content-type': 'application/json' },
        setupRequest: (request) => {
          sequence += 1;
          return {
            ...request,
            body: JSON.stringify({
              name: 'Bench Visitor',
              email: `bench-${process.pid}-${sequence}@example.com`,
              message: 'I would like to know more about the bundle.',
            }),
          };
        },
      },
    ],
  });
  return {
    rps: round(result.requests.average),
    p50_ms: result.latency.p50,
    p99_ms: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
  };
}

/**
 * The real order submit (validation, duplicate check, insert with its queued email, the first
 * attempt over pooled SMTP to a local mail server, status update) against a route of the same
 * server running only its three SQL statements; then again with the mail server answering
 * each message 150 ms late.
 */
export async function benchSubmit(
  root: string,
  dataDir: string,
  postgresAdminUrl?: string,
): Promise<SubmitResults> {
  const scratch = postgresAdminUrl ? await createScratchDatabase(postgresAdminUrl) : undefined;
  const sink = await startSmtpSink();
  const server = await startBenchServer(
    ['--import', 'tsx', path.join(root, 'bench/bench-server.ts')],
    {
      DATA_DIR: dataDir,
      AUTH_SECRET: 'bench-secret-bench-secret-bench-secret',
      FORM_RATE_LIMIT: '1000000000',
      SMTP_URL: sink.url,
      ...(scratch ? { DATABASE_URL: scratch.url } : {}),
    },
  );
  try {
    await load(server.url, ORDER_ROUTE, 2); // warm-up: JIT, connection pool, caches
    const real = await load(server.url, ORDER_ROUTE, DURATION_S);
    const bare = await load(server.url, BARE_ROUTE, DURATION_S);
    sink.delayEach(PROVIDER_DELAY_MS);
    const slow = await load(server.url, ORDER_ROUTE, DURATION_S);
    const compared = (result: LoadResult) => ({
      ...result,
      ratio_to_bare: round(result.rps / bare.rps, 2),
      p99_ratio_to_bare: round(result.p99_ms / bare.p99_ms, 2),
    });
    return { ...compared(real), bare, smtp_150ms: compared(slow) };
  } finally {
    await server.stop();
    await sink.close();
    await scratch?.drop();
  }
}
