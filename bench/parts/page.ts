import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { firstLoadBytes } from '../lib/first-load-bytes';
import { startBenchServer } from '../lib/processes';
import { median, round } from '../lib/stats';
import { chromiumFlags, chromiumPath } from '../../scripts/chromium.mjs';

const CHROME_FLAGS = ['--headless=new', ...chromiumFlags].join(' ');

type LighthouseRun = {
  scores: Record<string, number>;
  lcpMs: number;
  tbtMs: number;
  cls: number;
};

export type PageResults = {
  runs: number;
  scores: Record<string, number>;
  lcp_ms: number;
  floor_lcp_ms: number;
  lcp_ratio: number;
  tbt_ms: number;
  cls: number;
  floor_scores: Record<string, number>;
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
      tbtMs: result.audits['total-blocking-time']?.numericValue ?? Number.NaN,
      cls: result.audits['cumulative-layout-shift']?.numericValue ?? Number.NaN,
    };
  } finally {
    await rm(outDir, { recursive: true, force: true });
  }
}

function medianScores(runs: LighthouseRun[]): Record<string, number> {
  const ids = Object.keys(runs[0]?.scores ?? {});
  return Object.fromEntries(ids.map((id) => [id, median(runs.map((run) => run.scores[id]!))]));
}

/**
 * Lighthouse on the home route and on its floor (the same HTML and CSS without scripts, from
 * the same server), alternating so that machine noise hits both alike.
 */
export async function benchPage(root: string, runs: number, dataDir: string): Promise<PageResults> {
  const server = await startBenchServer(
    ['--import', 'tsx', path.join(root, 'bench/bench-server.ts')],
    { DATA_DIR: dataDir, AUTH_SECRET: 'bench-secret-bench-secret-bench-secret' },
  );
  const home: LighthouseRun[] = [];
  const floor: LighthouseRun[] = [];
  try {
    for (let run = 0; run < runs; run += 1) {
      home.push(await lighthouse(`${server.url}/`, root));
      floor.push(await lighthouse(`${server.url}/__bench/floor`, root));
    }
  } finally {
    await server.stop();
  }
  const bytes = await firstLoadBytes(path.join(root, 'dist/client'));
  const lcp = median(home.map((run) => run.lcpMs));
  const floorLcp = median(floor.map((run) => run.lcpMs));
  return {
    runs,
    scores: medianScores(home),
    lcp_ms: round(lcp),
    floor_lcp_ms: round(floorLcp),
    lcp_ratio: round(lcp / floorLcp, 2),
    tbt_ms: round(median(home.map((run) => run.tbtMs))),
    cls: round(median(home.map((run) => run.cls)), 3),
    floor_scores: medianScores(floor),
    js_raw_bytes: bytes.js.raw,
    js_gzip_bytes: bytes.js.gzip,
    css_raw_bytes: bytes.css.raw,
    css_gzip_bytes: bytes.css.gzip,
  };
}
