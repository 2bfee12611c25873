import path from 'node:path';
import { EVENTS_PATH } from '../../src/shared/insights/insight-events';
import { createScratchDatabase } from '../lib/postgres';
import { startBenchServer, type BenchServer } from '../lib/processes';
import { sizes } from '../lib/sizes';
import { round } from '../lib/stats';
import { BARE_ROUTE, CONNECTIONS, load, postLoad, type LoadResult } from './submit';

/** Seconds of the warm-up and of each load. */
const SIZES = { full: { warmUpS: 2, loadS: 5 }, quick: { warmUpS: 1, loadS: 1 } };
/** Distinct visitors the load comes from: an address each, among seven user agents. */
const VISITORS = 5_000;

export type EventsResults = {
  bare: LoadResult;
  events: LoadResult & { ratio_to_bare: number; p99_ratio_to_bare: number };
  /**
   * Events in the database after the loads, against those answered 204 (more by at most the
   * requests in flight when each load stopped), and the visitors they came from.
   */
  check: { stored: number; answered: number; visitors: number };
};

let sequence = 0;

/**
 * Page views as the collector sends them (sendBeacon's text body), each from one of VISITORS
 * addresses behind a trusted proxy, so that the rate limit counts per visitor as it would
 * for real traffic and the visitor hashes vary.
 */
export function eventLoad(
  url: string,
  durationS: number,
  extra: (sequence: number) => Record<string, string> = () => ({}),
): Promise<LoadResult> {
  return postLoad(url, EVENTS_PATH, durationS, () => {
    sequence += 1;
    const visitor = sequence % VISITORS;
    return {
      headers: {
        'content-type': 'text/plain;charset=UTF-8',
        'user-agent': `Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0 Bench/${visitor % 7}`,
        'x-forwarded-for': `10.${(visitor >> 16) & 255}.${(visitor >> 8) & 255}.${visitor & 255}`,
      },
      body: JSON.stringify({ name: 'page_view', path: '/', ...extra(sequence) }),
    };
  });
}

/**
 * POST /api/events (validation, the day's salt, an HMAC, one insert, answered 204) against the
 * submit bench's bare route (three SQL statements of a form submission) on the same server.
 */
export async function benchEvents(
  root: string,
  dataDir: string,
  postgresAdminUrl?: string,
): Promise<EventsResults> {
  const { warmUpS, loadS } = sizes(SIZES);
  const scratch = postgresAdminUrl ? await createScratchDatabase(postgresAdminUrl) : undefined;
  let server: BenchServer | undefined;
  try {
    server = await startBenchServer(['--import', 'tsx', path.join(root, 'bench/bench-server.ts')], {
      DATA_DIR: dataDir,
      AUTH_SECRET: 'bench-secret-bench-secret-bench-secret',
      TRUST_PROXY: '1',
      ...(scratch ? { DATABASE_URL: scratch.url } : {}),
    });
    const { url } = server;
    // Warm-up: JIT, connection pools, the day's salt.
    const warm = await eventLoad(url, warmUpS);
    await load(url, BARE_ROUTE, warmUpS);

    const bare = await load(url, BARE_ROUTE, loadS);
    const events = await eventLoad(url, loadS);
    for (const [name, result] of Object.entries({ bare, events })) {
      if (result.errors > 0) throw new Error(`The ${name} load had ${result.errors} errors`);
    }
    const stored = (await (await fetch(`${url}/__bench/insight-events`)).json()) as {
      events: number;
      visitors: number;
    };
    const answered = warm.answered + events.answered;
    // A load stops with up to one request per connection sent but not yet answered.
    if (stored.events < answered || stored.events > answered + 2 * CONNECTIONS) {
      throw new Error(`${answered} events were answered 204 but ${stored.events} are stored`);
    }
    return {
      bare,
      events: {
        ...events,
        ratio_to_bare: round(events.rps / bare.rps, 2),
        p99_ratio_to_bare: round(events.p99_ms / bare.p99_ms, 2),
      },
      check: { stored: stored.events, answered, visitors: stored.visitors },
    };
  } finally {
    await server?.stop();
    await scratch?.drop();
  }
}
