import autocannon from 'autocannon';
import path from 'node:path';
import { createScratchDatabase } from '../lib/postgres';
import { startBenchServer } from '../lib/processes';
import { round } from '../lib/stats';

/** The order form's submit route and the bench-only floor beside it. */
export const ORDER_ROUTE = '/api/forms/order';
const BARE_ROUTE = '/__bench/bare-submit';

const DURATION_S = 10;
const CONNECTIONS = 50;

type LoadResult = { rps: number; p50_ms: number; p99_ms: number; errors: number };
export type SubmitResults = LoadResult & { ratio_to_bare: number; bare: LoadResult };

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
 * The real order submit (validation, duplicate check, insert, outbox mail, status update)
 * against a route of the same server running only its three SQL statements.
 */
export async function benchSubmit(
  root: string,
  dataDir: string,
  postgresAdminUrl?: string,
): Promise<SubmitResults> {
  const scratch = postgresAdminUrl ? await createScratchDatabase(postgresAdminUrl) : undefined;
  const server = await startBenchServer(
    ['--import', 'tsx', path.join(root, 'bench/bench-server.ts')],
    {
      DATA_DIR: dataDir,
      AUTH_SECRET: 'bench-secret-bench-secret-bench-secret',
      FORM_RATE_LIMIT: '1000000000',
      ...(scratch ? { DATABASE_URL: scratch.url } : {}),
    },
  );
  try {
    await load(server.url, ORDER_ROUTE, 2); // warm-up: JIT, connection pool, caches
    const real = await load(server.url, ORDER_ROUTE, DURATION_S);
    const bare = await load(server.url, BARE_ROUTE, DURATION_S);
    return { ...real, ratio_to_bare: round(real.rps / bare.rps, 2), bare };
  } finally {
    await server.stop();
    await scratch?.drop();
  }
}
