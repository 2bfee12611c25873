import path from 'node:path';
import { tableRowsPath } from '../../src/shared/admin/table-api';
import { freePort } from '../../tests/support/free-port';
import { startSmtpSink } from '../../tests/support/smtp-sink';
import { createScratchDatabase } from '../lib/postgres';
import { postJson, signInOverHttp } from '../lib/sign-in';
import { startBenchServer } from '../lib/processes';
import { percentile, round } from '../lib/stats';

const ADMIN = 'owner@example.com';
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
  const scratch = postgresAdminUrl ? await createScratchDatabase(postgresAdminUrl) : undefined;
  const sink = await startSmtpSink();
  const port = await freePort();
  const server = await startBenchServer(
    ['--import', 'tsx', path.join(root, 'bench/bench-server.ts')],
    {
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: dataDir,
      AUTH_SECRET: 'bench-secret-bench-secret-bench-secret',
      SMTP_URL: sink.url,
      ADMIN_EMAILS: ADMIN,
      ...(scratch ? { DATABASE_URL: scratch.url } : {}),
    },
  );
  try {
    const cookie = await signInOverHttp(server.url, sink, ADMIN);
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
    await server.stop();
    await sink.close();
    await scratch?.drop();
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
