import { tableExportPath, tableQueryString, tableRowsPath } from '../../src/shared/admin/table-api';
import type { TableQuery } from '../../src/shared/admin/table-api';
import { startAdminBenchServer } from '../lib/admin-bench-server';
import { postJson } from '../lib/sign-in';
import { sizes } from '../lib/sizes';
import { percentile, round } from '../lib/stats';

const TABLE = 'form_submissions';
/**
 * The table's sizes (BENCH_ADMIN_SEARCH_ROWS overrides them), the rounds timed after the
 * warm-up, and the number of the address searched for: it exists from that many rows on, and
 * ten times it is above the largest size, so its local part alone matches one row too.
 */
const SIZES = {
  full: { rows: [1_000_000], requests: 60, warmUp: 10, number: 123_457 },
  quick: { rows: [5_000], requests: 10, warmUp: 2, number: 1_234 },
};
/** A term only three rows have, never emailed, among a million generated submissions. */
const RARE = 'Quillfeather';
/** The generated addresses: bulk1@scale.test, bulk2@scale.test, … one domain, alike. */
const ADDRESSES = { before: 'bulk', after: '@scale.test' };
/** Searches timed against the plain page, each finding `matches` rows. */
function searchesFor(number: number) {
  return {
    rare: { q: RARE.toLowerCase(), matches: 3 },
    address: { q: `bulk${number}@scale.test`, matches: 1 },
    address_start: { q: `bulk${number}@scale`, matches: 1 },
    /** Without its "@" a start is a plain substring again, left to the trigram indexes. */
    local_part: { q: `bulk${number}`, matches: 1 },
  };
}
type SearchName = keyof ReturnType<typeof searchesFor>;

export type AdminSearchResult = {
  rows: number;
  /** p50 of each list request, in ms; `x_plain` is its multiple of the plain page's p50. */
  plain_ms: number;
  searches: Record<SearchName, { q: string; ms: number; x_plain: number }>;
  unsent_count_ms: number;
  unsent_count_x_plain: number;
  /** A filter that matches half the rows, for scale (its count reads every match). */
  intent_count_ms: number;
  export: { rows: number; seconds: number; rss_before_mb: number; rss_growth_mb: number };
  /** EXPLAIN (ANALYZE, BUFFERS) of each search's count and first page. */
  plans: Record<SearchName, { count: string; page: string }>;
};

/**
 * Search, filtered counts and Export all as the signed-in owner sees them, with
 * form_submissions grown in steps to each of `sizes` rows (three of them with a rare name and
 * never emailed, the rest with addresses alike): each list request is timed against the plain
 * first page in the same run, the searches' plans are kept, and the server's resident memory
 * is sampled while every row is exported.
 */
export async function benchAdminSearch(
  root: string,
  dataDir: string,
  postgresAdminUrl?: string,
): Promise<AdminSearchResult[]> {
  const { requests, warmUp, number, ...table } = sizes(SIZES);
  const rowSizes = process.env.BENCH_ADMIN_SEARCH_ROWS?.split(',').map(Number) ?? table.rows;
  const terms = searchesFor(number);
  const { server, cookie, close } = await startAdminBenchServer(root, dataDir, postgresAdminUrl);
  try {
    await postJson(server.url, '/__bench/fill', { rows: rowSizes[0]! - 3, addresses: ADDRESSES });
    for (let i = 1; i <= 3; i += 1) {
      await postJson(
        server.url,
        tableRowsPath(TABLE),
        { name: `Zephyrine ${RARE} ${i}`, email: `z${i}@example.org`, email_sent: false },
        { cookie },
      );
    }
    const results: AdminSearchResult[] = [];
    for (const rows of rowSizes) {
      await postJson(server.url, '/__bench/fill', { rows, addresses: ADDRESSES });
      const names = Object.keys(terms) as SearchName[];
      const rounds = { requests, warmUp };
      const [plain, unsent, ...found] = (await timeLists(server.url, cookie, rounds, [
        { query: {}, expected: rows },
        { query: { filter: { email_sent: false } }, expected: 3 },
        ...names.map((name) => ({
          query: { q: terms[name].q },
          expected: terms[name].matches,
        })),
      ])) as [number, number, ...number[]];
      const [intent] = (await timeLists(server.url, cookie, rounds, [
        { query: { filter: { purchase_intent: true } }, expected: -1 },
      ])) as [number];
      const searches = {} as AdminSearchResult['searches'];
      const plans = {} as AdminSearchResult['plans'];
      for (const [i, name] of names.entries()) {
        const { q } = terms[name];
        searches[name] = { q, ms: found[i]!, x_plain: round(found[i]! / plain, 2) };
        const explained = await postJson(server.url, '/__bench/explain', { table: TABLE, q });
        plans[name] = (await explained.json()) as AdminSearchResult['plans'][SearchName];
      }
      results.push({
        rows,
        plain_ms: plain,
        searches,
        unsent_count_ms: unsent,
        unsent_count_x_plain: round(unsent / plain, 2),
        intent_count_ms: intent,
        export: await timeExport(server, cookie, rows),
        plans,
      });
    }
    return results;
  } finally {
    await close();
  }
}

/**
 * The p50 of each list request, in ms: `warmUp` then `requests` rounds of one request each,
 * in turn (each round starting one further on), so a machine that gets busier meanwhile
 * slows them all alike. `expected` is the count each must answer (-1: any).
 */
async function timeLists(
  url: string,
  cookie: string,
  { requests, warmUp }: { requests: number; warmUp: number },
  lists: { query: TableQuery; expected: number }[],
): Promise<number[]> {
  const samples = lists.map((): number[] => []);
  for (let turn = 0; turn < warmUp + requests; turn += 1) {
    for (let step = 0; step < lists.length; step += 1) {
      const index = (turn + step) % lists.length;
      const { query, expected } = lists[index]!;
      const target = `${url}${tableRowsPath(TABLE)}${tableQueryString(query, 0)}`;
      const started = performance.now();
      const response = await fetch(target, { headers: { cookie } });
      const body = (await response.json()) as { count?: number };
      const elapsed = performance.now() - started;
      if (!response.ok || (expected >= 0 && body.count !== expected)) {
        throw new Error(`GET ${target} answered ${response.status}: ${JSON.stringify(body)}`);
      }
      if (turn >= warmUp) samples[index]!.push(elapsed);
    }
  }
  return samples.map((times) => round(percentile(times, 50), 1));
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
