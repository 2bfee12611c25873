import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { prerenderedRoutes } from '../../src/shared/prerendered-routes';
import { firstLoadBytes } from '../lib/first-load-bytes';
import { rawGet, startFloorServer } from '../lib/floor-server';
import { startAdminBenchServer } from '../lib/admin-bench-server';
import { sizes } from '../lib/sizes';
import { median, round } from '../lib/stats';
import { chromiumFlags, chromiumPath } from '../../scripts/chromium.mjs';
import { publishChange } from './store';

const CHROME_FLAGS = ['--headless=new', ...chromiumFlags].join(' ');

export type LighthouseRun = {
  scores: Record<string, number>;
  lcpMs: number;
  fcpMs: number;
  tbtMs: number;
  cls: number;
};

/** A public route measured against the home floor; `hash` is the route's location hash. */
export const PAGE_TARGETS: { name: string; hash: string }[] = prerenderedRoutes.map((route) => ({
  name: route === '/' ? 'home' : route.slice(1),
  hash: route === '/' ? '' : `#${route}`,
}));

export type PageResults = {
  pairs: number;
  /** Milliseconds from publishing a changed headline and price until home served it. */
  publish_ms: number;
  /** Each target's Lighthouse runs, in the order they ran, summarised. */
  targets: Record<string, TargetSummary>;
  /** Median LCP of home over the floor's; and the range of that ratio within the pairs. */
  lcp_ratio: number;
  lcp_ratio_pairs: Range;
  /** Every route's median LCP over the floor's median LCP. */
  lcp_ratio_to_floor: Record<string, number>;
  tbt_over_floor_ms: number;
  floor_bytes: { html: number; html_br: number; home_html_br: number };
  js_raw_bytes: number;
  js_gzip_bytes: number;
  css_raw_bytes: number;
  css_gzip_bytes: number;
};

const ATTEMPTS = 3;

/**
 * One Lighthouse run; Lighthouse with Chromium sometimes fails to record a trace
 * (NO_NAVSTART), so a failed run is repeated up to three times.
 */
async function lighthouse(url: string, root: string): Promise<LighthouseRun> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await lighthouseOnce(url, root);
    } catch (error) {
      if (attempt >= ATTEMPTS) throw error;
      console.warn(
        `  Lighthouse failed on ${url} (attempt ${attempt}), retrying: ${String(error).split('\n')[1] ?? error}`,
      );
    }
  }
}

/** One Lighthouse run (mobile preset, its default) in its own process. */
async function lighthouseOnce(url: string, root: string): Promise<LighthouseRun> {
  const outDir = await mkdtemp(path.join(os.tmpdir(), 'soul-reset-lh-'));
  const report = path.join(outDir, 'report.json');
  try {
    await new Promise<void>((resolve, reject) => {
      let stderr = '';
      const child = spawn(
        path.join(root, 'node_modules/.bin/lighthouse'),
        [
          url,
          '--output=json',
          `--output-path=${report}`,
          '--quiet',
          `--chrome-flags=${CHROME_FLAGS}`,
          // Neither is part of a score: the back/forward cache check navigates away and back,
          // and the full-page screenshot renders the page again, both after the trace.
          '--skip-audits=bf-cache',
          '--disable-full-page-screenshot',
        ],
        { env: { ...process.env, CHROME_PATH: chromiumPath }, stdio: ['ignore', 'ignore', 'pipe'] },
      );
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      child.once('error', reject);
      child.once('close', (code) =>
        code === 0 ? resolve() : reject(new Error(`lighthouse exited ${code}:\n${stderr}`)),
      );
    });
    const result = JSON.parse(await readFile(report, 'utf8')) as {
      categories: Record<string, { score: number | null }>;
      audits: Record<string, { numericValue?: number }>;
    };
    const scores = Object.fromEntries(
      Object.entries(result.categories).map(([id, category]) => [id, (category.score ?? 0) * 100]),
    );
    return {
      scores,
      lcpMs: result.audits['largest-contentful-paint']?.numericValue ?? Number.NaN,
      fcpMs: result.audits['first-contentful-paint']?.numericValue ?? Number.NaN,
      tbtMs: result.audits['total-blocking-time']?.numericValue ?? Number.NaN,
      cls: result.audits['cumulative-layout-shift']?.numericValue ?? Number.NaN,
    };
  } finally {
    await rm(outDir, { recursive: true, force: true });
  }
}

export function medianScores(runs: LighthouseRun[]): Record<string, number> {
  const ids = Object.keys(runs[0]?.scores ?? {});
  return Object.fromEntries(ids.map((id) => [id, median(runs.map((run) => run.scores[id]!))]));
}

/**
 * Rounds in which the routes other than home are measured too: they are held to a looser
 * target (1.10 of the floor) than home (1.05), and five routes in every round took most of
 * the bench's time. (The rounds of home and its floor are `--runs`.)
 */
const SIZES = { full: { routeRounds: 2 }, quick: { routeRounds: 0 } };

/**
 * Once the owner has published a changed headline and price (so every route is the page the
 * server renders from the published content), Lighthouse on the home route, on its floor (the
 * bytes home serves without scripts, from a static server in memory, see floor-server.ts) and
 * on every other public route, in rounds: each round runs them all (the other routes in the
 * first ROUTE_ROUNDS), in the opposite order to the round before, so that machine noise and
 * drift hit each alike.
 */
export async function benchPage(
  root: string,
  pairs: number,
  dataDir: string,
): Promise<PageResults> {
  const { routeRounds } = sizes(SIZES);
  const { server, cookie, close } = await startAdminBenchServer(root, dataDir);
  const runs: Record<string, LighthouseRun[]> = {};
  let floorBytes: PageResults['floor_bytes'];
  let publishMs: number;
  try {
    publishMs = await publishChange({ url: server.url, cookie });
    const floorServer = await startFloorServer(server.url);
    try {
      const brotliOf = async (url: string) =>
        (await rawGet(url, { 'accept-encoding': 'br' })).body.length;
      floorBytes = {
        html: Buffer.byteLength(floorServer.floor.html),
        html_br: await brotliOf(`${floorServer.url}/`),
        home_html_br: await brotliOf(`${server.url}/`),
      };
      const targets = [
        ...PAGE_TARGETS.map(({ name, hash }) => ({ name, url: `${server.url}/${hash}` })),
        { name: 'floor', url: `${floorServer.url}/` },
      ];
      // One unmeasured load of each warms both servers (the floor server's asset cache).
      for (const target of targets) await rawGet(target.url, { 'accept-encoding': 'br' });
      for (let round = 0; round < pairs; round += 1) {
        const measured = targets.filter(
          ({ name }) => round < routeRounds || name === 'home' || name === 'floor',
        );
        const order = round % 2 === 0 ? measured : [...measured].reverse();
        for (const target of order) {
          (runs[target.name] ??= []).push(await lighthouse(target.url, root));
        }
      }
    } finally {
      await floorServer.close();
    }
  } finally {
    await close();
  }
  return {
    ...summarisePage(runs, pairs, floorBytes, await firstLoadBytes(path.join(root, 'dist/client'))),
    publish_ms: round(publishMs),
  };
}

/** The figures of one bench run from its Lighthouse runs per target (home and floor included). */
export function summarisePage(
  runs: Record<string, LighthouseRun[]>,
  pairs: number,
  floorBytes: PageResults['floor_bytes'],
  bytes: { js: { raw: number; gzip: number }; css: { raw: number; gzip: number } },
): Omit<PageResults, 'publish_ms'> {
  const floor = runs.floor ?? [];
  const home = runs.home ?? [];
  const floorLcp = median(floor.map((run) => run.lcpMs));
  const pairRatios = home.map((run, index) => run.lcpMs / floor[index]!.lcpMs);
  return {
    pairs,
    targets: Object.fromEntries(
      Object.entries(runs).map(([name, list]) => [name, summariseTarget(list)]),
    ),
    lcp_ratio: round(median(home.map((run) => run.lcpMs)) / floorLcp, 2),
    lcp_ratio_pairs: rangeOf(pairRatios, 2),
    lcp_ratio_to_floor: Object.fromEntries(
      Object.entries(runs)
        .filter(([name]) => name !== 'floor')
        .map(([name, list]) => [name, round(median(list.map((run) => run.lcpMs)) / floorLcp, 2)]),
    ),
    tbt_over_floor_ms: round(
      median(home.map((run) => run.tbtMs)) - median(floor.map((run) => run.tbtMs)),
    ),
    floor_bytes: floorBytes,
    js_raw_bytes: bytes.js.raw,
    js_gzip_bytes: bytes.js.gzip,
    css_raw_bytes: bytes.css.raw,
    css_gzip_bytes: bytes.css.gzip,
  };
}

export type Range = { median: number; min: number; max: number };

function rangeOf(values: number[], digits = 0): Range {
  return {
    median: round(median(values), digits),
    min: round(Math.min(...values), digits),
    max: round(Math.max(...values), digits),
  };
}

export type TargetSummary = {
  runs: number;
  scores: Record<string, number>;
  min_scores: Record<string, number>;
  lcp_ms: Range;
  fcp_ms: Range;
  tbt_ms: Range;
  cls: Range;
  lcp_each_ms: number[];
};

function summariseTarget(list: LighthouseRun[]): TargetSummary {
  const ids = Object.keys(list[0]?.scores ?? {});
  return {
    runs: list.length,
    scores: medianScores(list),
    min_scores: Object.fromEntries(
      ids.map((id) => [id, Math.min(...list.map((run) => run.scores[id]!))]),
    ),
    lcp_ms: rangeOf(list.map((run) => run.lcpMs)),
    fcp_ms: rangeOf(list.map((run) => run.fcpMs)),
    tbt_ms: rangeOf(list.map((run) => run.tbtMs)),
    cls: rangeOf(
      list.map((run) => run.cls),
      3,
    ),
    lcp_each_ms: list.map((run) => round(run.lcpMs)),
  };
}
