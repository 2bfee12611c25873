import {
  ADMIN_SUBSCRIBERS_PATH,
  listConfirmPath,
  listUnsubscribePath,
} from '../../src/shared/list/list-api';
import { startAdminBenchServer } from '../lib/admin-bench-server';
import type { BenchServer } from '../lib/processes';
import { postJson } from '../lib/sign-in';
import { sizes } from '../lib/sizes';
import { percentile, round } from '../lib/stats';
import { BARE_ROUTE, load, postLoad, type LoadResult } from './submit';

/**
 * Seconds of each load at 50 connections, the links made ready for it (more than a load
 * answers, so every request acts on a fresh link), the rows of the import, the subscribers
 * the search runs among and the rounds it is timed.
 */
const SIZES = {
  full: { loadS: 10, links: 30_000, importRows: 100_000, rows: 300_000, requests: 40, warmUp: 5 },
  quick: { loadS: 3, links: 6_000, importRows: 5_000, rows: 5_000, requests: 10, warmUp: 2 },
};
/** The page timed while the import runs: the home page, as a visitor meets it. */
const PAGE = '/';

type Compared = LoadResult & { ratio_to_bare: number };

export type ListResult = {
  bare: LoadResult;
  confirm: Compared;
  unsubscribe: Compared;
  import: {
    rows: number;
    seconds: number;
    rows_per_s: number;
    rss_before_mb: number;
    rss_growth_mb: number;
    page_idle_p99_ms: number;
    page_during_p99_ms: number;
    page_p99_x_idle: number;
  };
  search: {
    rows: number;
    q: string;
    plain_ms: number;
    search_ms: number;
    x_plain: number;
  };
};

/**
 * The mailing list's links, import and search (issue 36): confirmation and one-click
 * unsubscribe POSTs at 50 connections beside the bare 3-statement route of the submit part,
 * a CSV import timed with the server's RSS sampled and a page's p99 beside the idle page's,
 * and the subscriber search for one address among many alike against the plain page.
 */
export async function benchList(
  root: string,
  dataDir: string,
  postgresAdminUrl?: string,
): Promise<ListResult> {
  const { loadS, links, importRows, rows, requests, warmUp } = sizes(SIZES);
  const { server, cookie, close } = await startAdminBenchServer(root, dataDir, postgresAdminUrl);
  try {
    const bare = await load(server.url, BARE_ROUTE, loadS);
    const linkLoad = async (purpose: 'confirm' | 'unsubscribe') => {
      const made = await postJson(server.url, '/__bench/list/tokens', { count: links, purpose });
      const { tokens } = (await made.json()) as { tokens: string[] };
      let next = 0;
      // RFC 8058's one-click body for the unsubscribe, an empty form for the confirm button.
      const body = purpose === 'unsubscribe' ? 'List-Unsubscribe=One-Click' : '';
      const pathOf = purpose === 'confirm' ? listConfirmPath : listUnsubscribePath;
      const result = await postLoad(server.url, pathOf(tokens[0]!), loadS, () => {
        const token = tokens[next % tokens.length]!;
        next += 1;
        return {
          body,
          path: pathOf(token),
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        };
      });
      if (next > tokens.length) console.log(`list: ${purpose} reused links (${next} requests)`);
      return { ...result, ratio_to_bare: round(result.rps / bare.rps, 2) };
    };
    const confirm = await linkLoad('confirm');
    const unsubscribe = await linkLoad('unsubscribe');
    const imported = await timeImport(server, cookie, importRows);
    await postJson(server.url, '/__bench/list/fill', { rows });
    const search = await timeSearch(server.url, cookie, rows, { requests, warmUp });
    return { bare, confirm, unsubscribe, import: imported, search };
  } finally {
    await close();
  }
}

/** GETs of PAGE one after another, at least `least` and until `until()`: their p99 in ms. */
export async function pageP99(url: string, until: () => boolean, least: number): Promise<number> {
  const times: number[] = [];
  while (times.length < least || !until()) {
    const started = performance.now();
    const response = await fetch(`${url}${PAGE}`);
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`GET ${PAGE} answered ${response.status}`);
    times.push(performance.now() - started);
  }
  return round(percentile(times, 99), 1);
}

async function timeImport(server: BenchServer, cookie: string, rows: number) {
  const csv = ['email,name'];
  for (let i = 1; i <= rows; i += 1) csv.push(`imported${i}@import.test,Imported ${i}`);
  const idle = await pageP99(server.url, () => true, 200);
  const before = await server.rssMb();
  let peak = before;
  let running = true;
  const sampler = (async () => {
    while (running) {
      peak = Math.max(peak, await server.rssMb());
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  const started = performance.now();
  const importing = fetch(`${server.url}${ADMIN_SUBSCRIBERS_PATH}/import`, {
    method: 'POST',
    headers: { cookie, origin: server.url, 'content-type': 'text/csv' },
    body: csv.join('\n'),
  }).then(async (response) => {
    const text = await response.text();
    running = false;
    if (!response.ok) throw new Error(`Import answered ${response.status}: ${text}`);
    const report = JSON.parse(text) as { valid: number };
    if (report.valid !== rows) throw new Error(`Import took ${report.valid} of ${rows} rows`);
    return performance.now() - started;
  });
  const during = await pageP99(server.url, () => !running, 20);
  const ms = await importing;
  await sampler;
  return {
    rows,
    seconds: round(ms / 1000, 1),
    rows_per_s: round(rows / (ms / 1000)),
    rss_before_mb: round(before, 0),
    rss_growth_mb: round(peak - before, 1),
    page_idle_p99_ms: idle,
    page_during_p99_ms: during,
    page_p99_x_idle: round(during / idle, 2),
  };
}

/** p50 of the plain first page and of a search for one address among `rows` alike. */
async function timeSearch(
  url: string,
  cookie: string,
  rows: number,
  { requests, warmUp }: { requests: number; warmUp: number },
) {
  const number = Math.floor(rows / 2) + 7;
  const q = `bulk${number}@scale`;
  const lists = [
    { query: '', expected: -1 },
    { query: `?q=${encodeURIComponent(q)}`, expected: 1 },
  ];
  const samples = lists.map((): number[] => []);
  for (let turn = 0; turn < warmUp + requests; turn += 1) {
    for (let step = 0; step < lists.length; step += 1) {
      const index = (turn + step) % lists.length;
      const { query, expected } = lists[index]!;
      const started = performance.now();
      const response = await fetch(`${url}${ADMIN_SUBSCRIBERS_PATH}${query}`, {
        headers: { cookie },
      });
      const body = (await response.json()) as { count?: number };
      const elapsed = performance.now() - started;
      if (!response.ok || (expected >= 0 && body.count !== expected)) {
        throw new Error(`GET ${query} answered ${response.status}: ${JSON.stringify(body)}`);
      }
      if (turn >= warmUp) samples[index]!.push(elapsed);
    }
  }
  const [plain, search] = samples.map((times) => round(percentile(times, 50), 1)) as [
    number,
    number,
  ];
  return { rows, q, plain_ms: plain, search_ms: search, x_plain: round(search / plain, 2) };
}
