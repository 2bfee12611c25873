import { tableRowsPath } from '../../src/shared/admin/table-api';
import { startAdminBenchServer } from '../lib/admin-bench-server';
import { postJson } from '../lib/sign-in';
import { sizes } from '../lib/sizes';
import { percentile, round } from '../lib/stats';

const TABLE = 'form_submissions';
/** The table's sizes, and the requests timed per page after the warm-up. */
const SIZES = {
  full: { rows: [10_000, 100_000, 1_000_000], requests: 200, warmUp: 20 },
  quick: { rows: [1_000, 5_000], requests: 20, warmUp: 5 },
};

type Latency = { p50_ms: number; p95_ms: number };
/** Both pages together, and each on its own. */
export type AdminListResult = Latency & { page0: Latency; middle: Latency & { page: number } };
export type AdminResults = Record<string, AdminListResult>;

/**
 * Admin list latency as the signed-in owner sees it: `requests` sequential requests for page 0
 * and as many for the middle page of form_submissions, grown in steps to each size.
 */
export async function benchAdmin(
  root: string,
  dataDir: string,
  postgresAdminUrl?: string,
): Promise<AdminResults> {
  const { rows: rowSizes, ...rounds } = sizes(SIZES);
  const { server, cookie, close } = await startAdminBenchServer(root, dataDir, postgresAdminUrl);
  try {
    const results: AdminResults = {};
    for (const rows of rowSizes) {
      await postJson(server.url, '/__bench/fill', { rows });
      const middle = Math.floor(rows / 10 / 2);
      const first = await timeList(server.url, cookie, 0, rounds);
      const mid = await timeList(server.url, cookie, middle, rounds);
      const both = [...first, ...mid];
      results[rows] = {
        ...summarise(both),
        page0: summarise(first),
        middle: { page: middle, ...summarise(mid) },
      };
    }
    return results;
  } finally {
    await close();
  }
}

function summarise(samples: number[]): Latency {
  return { p50_ms: round(percentile(samples, 50), 1), p95_ms: round(percentile(samples, 95), 1) };
}

async function timeList(
  url: string,
  cookie: string,
  page: number,
  { requests, warmUp }: { requests: number; warmUp: number },
): Promise<number[]> {
  const target = `${url}${tableRowsPath(TABLE)}?page=${page}`;
  const samples: number[] = [];
  for (let i = 0; i < warmUp + requests; i += 1) {
    const started = performance.now();
    const response = await fetch(target, { headers: { cookie } });
    const body = (await response.json()) as { rows?: unknown[] };
    const elapsed = performance.now() - started;
    if (!response.ok || body.rows?.length !== 10) {
      throw new Error(`GET ${target} answered ${response.status}: ${JSON.stringify(body)}`);
    }
    if (i >= warmUp) samples.push(elapsed);
  }
  return samples;
}
