import { tableRowsPath } from '../../src/shared/admin/table-api';
import { startAdminBenchServer } from '../lib/admin-bench-server';
import { postJson } from '../lib/sign-in';
import { percentile, round } from '../lib/stats';

const TABLE = 'form_submissions';
const REQUESTS = 200;
const WARM_UP = 20;

type Latency = { p50_ms: number; p95_ms: number };
/** Both pages together, and each on its own. */
export type AdminListResult = Latency & { page0: Latency; middle: Latency & { page: number } };
export type AdminResults = Record<string, AdminListResult>;

/**
 * Admin list latency as the signed-in owner sees it: `REQUESTS` sequential requests for page 0
 * and as many for the middle page of form_submissions, grown in steps to each of `sizes` rows.
 */
export async function benchAdmin(
  root: string,
  dataDir: string,
  sizes: number[],
  postgresAdminUrl?: string,
): Promise<AdminResults> {
  const { server, cookie, close } = await startAdminBenchServer(root, dataDir, postgresAdminUrl);
  try {
    const results: AdminResults = {};
    for (const rows of sizes) {
      await postJson(server.url, '/__bench/fill', { rows });
      const middle = Math.floor(rows / 10 / 2);
      const first = await timeList(server.url, cookie, 0);
      const mid = await timeList(server.url, cookie, middle);
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

async function timeList(url: string, cookie: string, page: number): Promise<number[]> {
  const target = `${url}${tableRowsPath(TABLE)}?page=${page}`;
  const samples: number[] = [];
  for (let i = 0; i < WARM_UP + REQUESTS; i += 1) {
    const started = performance.now();
    const response = await fetch(target, { headers: { cookie } });
    const body = (await response.json()) as { rows?: unknown[] };
    const elapsed = performance.now() - started;
    if (!response.ok || body.rows?.length !== 10) {
      throw new Error(`GET ${target} answered ${response.status}: ${JSON.stringify(body)}`);
    }
    if (i >= WARM_UP) samples.push(elapsed);
  }
  return samples;
}
