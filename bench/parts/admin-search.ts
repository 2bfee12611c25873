import { tableExportPath, tableQueryString, tableRowsPath } from '../../src/shared/admin/table-api';
import type { TableQuery } from '../../src/shared/admin/table-api';
import { startAdminBenchServer } from '../lib/admin-bench-server';
import { postJson } from '../lib/sign-in';
import { percentile, round } from '../lib/stats';

const TABLE = 'form_submissions';
const REQUESTS = 60;
const WARM_UP = 10;
/** A term only three rows have, never emailed, among a million generated submissions. */
const RARE = 'Quillfeather';

export type AdminSearchResult = {
  rows: number;
  /** p50 of each list request, in ms; `x_plain` is its multiple of the plain page's p50. */
  plain_ms: number;
  rare_search_ms: number;
  rare_search_x_plain: number;
  unsent_count_ms: number;
  unsent_count_x_plain: number;
  /** A filter that matches half the rows, for scale (its count reads every match). */
  intent_count_ms: number;
  export: { rows: number; seconds: number; rss_before_mb: number; rss_growth_mb: number };
};

/**
 * Search, filtered counts and Export all at `rows` rows of form_submissions, as the signed-in
 * owner sees them: each list request is timed against the plain first page in the same run,
 * and the server's resident memory is sampled while every row is exported.
 */
export async function benchAdminSearch(
  root: string,
  dataDir: string,
  rows: number,
  postgresAdminUrl?: string,
): Promise<AdminSearchResult> {
  const { server, cookie, close } = await startAdminBenchServer(root, dataDir, postgresAdminUrl);
  try {
    await postJson(server.url, '/__bench/fill', { rows: rows - 3 });
    for (let i = 1; i <= 3; i += 1) {
      await postJson(
        server.url,
        tableRowsPath(TABLE),
        { name: `Zephyrine ${RARE} ${i}`, email: `z${i}@example.org`, email_sent: false },
        { cookie },
      );
    }
    const time = (query: TableQuery, expected: number) =>
      timeList(server.url, cookie, query, expected);
    const plain = await time({}, rows);
    const rare = await time({ q: RARE.toLowerCase() }, 3);
    const unsent = await time({ filter: { email_sent: false } }, 3);
    const intent = await time({ filter: { purchase_intent: true } }, -1);
    return {
      rows,
      plain_ms: plain,
      rare_search_ms: rare,
      rare_search_x_plain: round(rare / plain, 2),
      unsent_count_ms: unsent,
      unsent_count_x_plain: round(unsent / plain, 2),
      intent_count_ms: intent,
      export: await timeExport(server, cookie, rows),
    };
  } finally {
    await close();
  }
}

async function timeList(
  url: string,
  cookie: string,
  query: TableQuery,
  expected: number,
): Promise<number> {
  const target = `${url}${tableRowsPath(TABLE)}${tableQueryString(query, 0)}`;
  const samples: number[] = [];
  for (let i = 0; i < WARM_UP + REQUESTS; i += 1) {
    const started = performance.now();
    const response = await fetch(target, { headers: { cookie } });
    const body = (await response.json()) as { count?: number };
    const elapsed = performance.now() - started;
    if (!response.ok || (expected >= 0 && body.count !== expected)) {
      throw new Error(`GET ${target} answered ${response.status}: ${JSON.stringify(body)}`);
    }
    if (i >= WARM_UP) samples.push(elapsed);
  }
  return round(percentile(samples, 50), 1);
}

/** Streams every row's CSV and discards it, sampling the server's RSS every 50 ms. */
async function timeExport(
  server: { url: string; rssMb(): Promise<number> },
  cookie: string,
  rows: number,
) {
  const before = await server.rssMb();
  let peak = before;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      peak = Math.max(peak, await server.rssMb());
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  const started = performance.now();
  const response = await fetch(`${server.url}${tableExportPath(TABLE)}`, { headers: { cookie } });
  if (!response.ok || !response.body) throw new Error(`Export answered ${response.status}`);
  // Line feeds (generated rows have none inside a cell): one between each two lines.
  let lines = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    for (const byte of value) if (byte === 10) lines += 1;
  }
  const seconds = (performance.now() - started) / 1000;
  sampling = false;
  await sampler;
  // The header and every row: rows - 1 line breaks, plus the header's.
  if (lines !== rows) throw new Error(`Export had ${lines + 1} lines for ${rows} rows.`);
  return {
    rows,
    seconds: round(seconds, 1),
    rss_before_mb: round(before, 0),
    rss_growth_mb: round(peak - before, 1),
  };
}
