import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { compressPage } from '../../src/server/web/index-page';
import { summarisePage, type LighthouseRun } from '../parts/page';
import { firstLoadBytes } from './first-load-bytes';
import { buildFloor, stripScripts } from './floor';
import { rawGet, startFloorServer } from './floor-server';
import { checkOrders } from './orders-check';
import { processTree, pssMb } from './process-memory';
import { formatResults } from './report';
import { median, percentile } from './stats';

const html = `<!doctype html><html><head>
<script type="module" crossorigin src="/assets/index-abc.js"></script>
<link rel="modulepreload" crossorigin href="/assets/vendor-def.js">
<link rel="stylesheet" crossorigin href="/assets/index-123.css">
</head><body><div id="root"><h1>Home</h1></div>
<script type="application/json" id="config">{"a":1}</script></body></html>`;

describe('stripScripts', () => {
  it('keeps the markup and CSS and drops every script and module preload', () => {
    const floor = stripScripts(html);
    expect(floor).not.toMatch(/<script/i);
    expect(floor).not.toContain('modulepreload');
    expect(floor).toContain('<link rel="stylesheet" crossorigin href="/assets/index-123.css">');
    expect(floor).toContain('<div id="root"><h1>Home</h1></div>');
  });
});

describe('buildFloor', () => {
  it('takes the served HTML without scripts and the page headers without per-response ones', () => {
    const floor = buildFloor(html, {
      'Content-Security-Policy': "script-src 'self'",
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-cache',
      vary: 'accept-encoding',
      'content-encoding': 'br',
      'content-length': '6809',
      date: 'Tue, 24 Nov 2026 18:34:25 GMT',
      'x-request-id': 'abc',
      connection: 'keep-alive',
      'keep-alive': 'timeout=72',
    });
    expect(floor.html).toBe(stripScripts(html));
    expect(floor.headers).toEqual({
      'content-security-policy': "script-src 'self'",
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-cache',
      vary: 'accept-encoding',
    });
  });
});

describe('startFloorServer', () => {
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
  });

  /** An app stand-in: its home page compressed like the real one, and a stylesheet. */
  async function fakeApp(homeHtml: string) {
    const page = await compressPage(homeHtml);
    const hits: string[] = [];
    const server = http.createServer((request, response) => {
      hits.push(request.url ?? '');
      if (request.url === '/') {
        const accepted = request.headers['accept-encoding'] ?? '';
        const encoding = accepted.includes('br') ? 'br' : null;
        response.writeHead(200, {
          'content-type': 'text/html; charset=utf-8',
          'content-security-policy': "default-src 'self'",
          'cache-control': 'no-cache',
          vary: 'accept-encoding',
          'x-request-id': String(hits.length),
          ...(encoding ? { 'content-encoding': encoding } : {}),
        });
        response.end(encoding ? page.br : page.plain);
      } else {
        response.writeHead(200, { 'content-type': 'text/css', 'cache-control': 'immutable' });
        response.end('body{color:red}');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise((resolve) => server.close(() => resolve())));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits };
  }

  it('serves the bytes the home page serves, minus scripts, compressed and headed alike', async () => {
    const bigHtml = html.replace('<h1>Home</h1>', `<h1>Home</h1>${'<p>calm</p>'.repeat(400)}`);
    const app = await fakeApp(bigHtml);
    const floor = await startFloorServer(app.url);
    closers.push(floor.close);

    const home = await rawGet(`${app.url}/`, { 'accept-encoding': 'gzip, deflate, br' });
    const served = await rawGet(`${floor.url}/`, { 'accept-encoding': 'gzip, deflate, br' });
    expect(served.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(served.body).toString()).toBe(stripScripts(bigHtml));
    expect(served.body).toEqual((await compressPage(stripScripts(bigHtml))).br);
    for (const name of ['content-type', 'content-security-policy', 'cache-control', 'vary']) {
      expect(served.headers[name]).toBe(home.headers[name]);
    }
    expect(served.headers['x-request-id']).toBeUndefined();

    const gzip = await rawGet(`${floor.url}/`, { 'accept-encoding': 'gzip' });
    expect(gunzipSync(gzip.body).toString()).toBe(stripScripts(bigHtml));
    const plain = await rawGet(`${floor.url}/`);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(stripScripts(bigHtml));
  });

  it('answers other paths from memory after one fetch from the app', async () => {
    const app = await fakeApp(html);
    const floor = await startFloorServer(app.url);
    closers.push(floor.close);

    const first = await rawGet(`${floor.url}/assets/index-123.css`);
    const second = await rawGet(`${floor.url}/assets/index-123.css`);
    expect(first.body.toString()).toBe('body{color:red}');
    expect(second.body).toEqual(first.body);
    expect(second.headers['cache-control']).toBe('immutable');
    expect(app.hits.filter((url) => url === '/assets/index-123.css')).toHaveLength(1);
  });
});

describe('summarisePage', () => {
  const run = (lcpMs: number, tbtMs = 10): LighthouseRun => ({
    scores: { performance: 100, accessibility: 100, 'best-practices': 100, seo: 100 },
    lcpMs,
    fcpMs: lcpMs,
    tbtMs,
    cls: 0,
  });

  it('gives medians, ranges, the ratio of medians and the range of pair ratios', () => {
    const result = summarisePage(
      {
        home: [run(1000, 40), run(1100, 50), run(1300, 60)],
        floor: [run(1000, 10), run(1000, 20), run(1000, 30)],
        'privacy-policy': [run(900), run(1050), run(1200)],
      },
      3,
      { html: 1, html_br: 1, home_html_br: 1 },
      { js: { raw: 0, gzip: 0 }, css: { raw: 0, gzip: 0 } },
    );
    expect(result.targets.home!.lcp_ms).toEqual({ median: 1100, min: 1000, max: 1300 });
    expect(result.lcp_ratio).toBe(1.1);
    expect(result.lcp_ratio_pairs).toEqual({ median: 1.1, min: 1, max: 1.3 });
    expect(result.lcp_ratio_to_floor).toEqual({ home: 1.1, 'privacy-policy': 1.05 });
    expect(result.tbt_over_floor_ms).toBe(30);
  });
});

describe('firstLoadBytes', () => {
  let dir = '';
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('sums the entry script, the chunks it imports or preloads, and the stylesheet', async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'bench-bytes-'));
    await mkdir(path.join(dir, 'assets'));
    const entry = Buffer.from(`import "./vendor-def.js";${'console.log("entry");'.repeat(50)}`);
    const vendor = Buffer.from('export const vendor = 1;'.repeat(80));
    const css = Buffer.from('body{color:red}'.repeat(30));
    await writeFile(path.join(dir, 'index.html'), html);
    await writeFile(path.join(dir, 'assets/index-abc.js'), entry);
    await writeFile(path.join(dir, 'assets/vendor-def.js'), vendor);
    await writeFile(path.join(dir, 'assets/index-123.css'), css);

    const bytes = await firstLoadBytes(dir);

    const gz = (content: Buffer) => gzipSync(content, { level: 9 }).length;
    expect(bytes.js).toEqual({
      raw: entry.length + vendor.length,
      gzip: gz(entry) + gz(vendor),
    });
    expect(bytes.css).toEqual({ raw: css.length, gzip: gz(css) });
  });
});

describe('stats', () => {
  it('takes nearest-rank percentiles', () => {
    const values = [5, 1, 4, 2, 3];
    expect(median(values)).toBe(3);
    expect(percentile(values, 99)).toBe(5);
    expect(percentile(values, 20)).toBe(1);
    expect(
      percentile(
        Array.from({ length: 200 }, (_, i) => i + 1),
        95,
      ),
    ).toBe(190);
  });
});

describe('formatResults', () => {
  it('prints each part as a table with its figures', () => {
    const text = formatResults({
      start: { pglite: { ready_ms_new: 3500, ready_ms_existing: 1500, rss_mb: 320 } },
      submit: {
        postgres: {
          rps: 900,
          p50_ms: 40,
          p99_ms: 120,
          errors: 0,
          ratio_to_bare: 0.75,
          p99_ratio_to_bare: 1.33,
          drain_s: 8.5,
          left: 0,
          delivered_per_s: 480,
          delivered_ratio_to_bare: 0.4,
          bare: { rps: 1200, p50_ms: 30, p99_ms: 90, errors: 0 },
          smtp_150ms: {
            rps: 1100,
            p50_ms: 35,
            p99_ms: 80,
            errors: 0,
            ratio_to_bare: 0.92,
            p99_ratio_to_bare: 0.89,
            drain_s: 60,
            left: 8000,
            delivered_per_s: 65,
            delivered_ratio_to_bare: 0.05,
          },
        },
      },
    });
    expect(text).toContain('| pglite | 3500 ms    | 1500 ms         | 320 MB   |');
    expect(text).toMatch(
      /\| postgres, instant \| 900\s+\| 40 ms \| 120 ms \| 0\s+\| 1200\s+\| 90 ms\s+\| 0\.75\s+\| 1\.33\s+\| 8\.5 s\s+\| 480\s+\| 0\.4\s+\|/,
    );
    // A queue the bench stopped waiting for says how much was left.
    expect(text).toMatch(/\| postgres, 150 ms\s+\| 1100 .*\| > 60 s \(8000 left\)\s+\| 65\s+\|/);
  });
});

describe('formatResults for the store', () => {
  it('prints publishing, each download round and the image upload beside their goals', () => {
    const text = formatResults({
      store: {
        embedded: {
          publish: { median_ms: 90, each_ms: [80, 90, 120] },
          image: { median_ms: 480, each_ms: [470, 480, 500], width: 4000, height: 3000, mb: 4.3 },
          downloads: {
            file_mb: 50,
            clients: 8,
            mb_per_s: 70,
            rss_before_mb: 350,
            rss_growth_mb: [24.5, 6, 4.2],
          },
        },
      },
    });
    expect(text).toMatch(
      /\| embedded \| publish until GET \/ shows it\s+\| 90 ms \(80, 90, 120\)\s+\| < 1000 ms \|/,
    );
    expect(text).toMatch(
      /\| 8 downloads of 50 MB at once, RSS growth per round\s+\| \+24\.5 MB, \+6 MB, \+4\.2 MB \(from 350 MB; 70 MB\/s\)\s+\| < 50 MB\s+\|/,
    );
    expect(text).toMatch(
      /\| upload of a 4000×3000 JPEG \(4\.3 MB\) until 201\s+\| 480 ms \(470, 480, 500\)\s+\| < 2000 ms\s+\|/,
    );
  });
});

describe('formatResults for the mailing list', () => {
  it('prints the links, the import and the search beside their goals', () => {
    const load = { rps: 800, p50_ms: 50, p99_ms: 120, max_ms: 200, errors: 0, answered: 8000 };
    const text = formatResults({
      list: {
        embedded: {
          bare: { ...load, rps: 1000 },
          confirm: { ...load, ratio_to_bare: 0.8 },
          unsubscribe: { ...load, rps: 700, ratio_to_bare: 0.7 },
          import: {
            rows: 100000,
            seconds: 50,
            rows_per_s: 2000,
            rss_before_mb: 300,
            rss_growth_mb: 40.5,
            page_idle_p99_ms: 10,
            page_during_p99_ms: 15,
            page_p99_x_idle: 1.5,
          },
          search: {
            rows: 300000,
            q: 'bulk150007@scale',
            plain_ms: 10,
            search_ms: 12,
            x_plain: 1.2,
          },
        },
      },
    });
    expect(text).toMatch(
      /\| confirm POSTs\/s.*\| 800 \(120 ms; 0\) = 0\.8× bare 1000\s+\| ≥ 0\.8× bare \|/,
    );
    expect(text).toMatch(/one-click unsubscribe POSTs\/s.*\| 700 \(120 ms; 0\) = 0\.7× bare 1000/);
    expect(text).toMatch(/import of 100000 rows\s+\| 50 s, 2000 rows\/s/);
    expect(text).toMatch(
      /RSS growth during the import\s+\| \+40\.5 MB \(from 300 MB\)\s+\| ≤ 64 MB/,
    );
    expect(text).toMatch(/GET \/ p99 during the import\s+\| 15 ms = 1\.5× idle 10 ms/);
    expect(text).toMatch(
      /search bulk150007@scale among 300000 \(p50\)\s+\| 12 ms = 1\.2× plain page 10 ms/,
    );
  });
});

describe('formatResults for broadcasts', () => {
  it('prints the broadcast beside the plain loop, RSS and the page p99 with their goals', () => {
    const embedded = {
      subscribers: 100000,
      connections: 9,
      messages_per_second: 800,
      plain_messages_per_second: 1000,
      ratio_to_plain: 0.8,
      rss_before_mb: 150,
      rss_growth_mb: 30.5,
      page_idle_p99_ms: 10,
      page_during_p99_ms: 14,
      page_p99_ratio: 1.4,
      first_message_s: 1.5,
      instant: {
        broadcast: { messages: 48000, seconds: 60, messages_per_second: 800 },
        plain: { messages: 60000, seconds: 60, messages_per_second: 1000 },
      },
      smtp_150ms: {
        messages_per_second: 58.5,
        plain_messages_per_second: 59,
        ratio_to_plain: 0.99,
        window_s: 20,
      },
    };
    // As bench/run.ts writes it: DESIGN.md's keys at the top, from the embedded side.
    const text = formatResults({ broadcast: { ...embedded, embedded } });
    expect(text.match(/\| embedded \|/g)).toHaveLength(4);
    expect(text).toMatch(
      /\| embedded \| 100000 recipients, mail server answering at once \(msgs\/s over 60 s; 9 connections\)\s+\| 800 = 0\.8× plain 1000 \(first message after 1\.5 s\)\s+\| ≥ 0\.8× plain \|/,
    );
    expect(text).toMatch(
      /mail server answering 150 ms late \(msgs\/s over 20 s\)\s+\| 58\.5 = 0\.99× plain 59\s+\| ≥ 0\.8× plain/,
    );
    expect(text).toMatch(
      /server RSS growth while it sends\s+\| \+30\.5 MB \(from 150 MB\)\s+\| ≤ 64 MB/,
    );
    expect(text).toMatch(
      /GET \/ p99 while it sends\s+\| 14 ms = 1\.4× idle 10 ms\s+\| ≤ 1\.5× idle/,
    );
  });
});

describe('checkOrders', () => {
  const order = (session_id: string, links = 1, emails = 2) => ({ session_id, links, emails });
  const options = { emailsPerOrder: 2, inFlightLimit: 1 };

  it('counts the orders, the answered sessions and the ones a stopped load left unanswered', () => {
    expect(checkOrders([order('a'), order('b'), order('c')], 3, ['a', 'b'], options)).toEqual({
      orders: 3,
      events: 3,
      answered: 2,
      unanswered: 1,
    });
  });

  it.each([
    ['an order without its link', [order('a', 0), order('b')], 2, ['a', 'b'], /exactly one link/],
    ['an order with two links', [order('a', 2), order('b')], 2, ['a', 'b'], /exactly one link/],
    ['an order with one email', [order('a', 1, 1)], 1, ['a'], /exactly 2 emails/],
    ['more events than orders', [order('a')], 2, ['a'], /1 orders for 2 recorded/],
    ['an answered session without an order', [order('a')], 1, ['a', 'b'], /1 answered sessions/],
    [
      'more unanswered orders than can be in flight',
      [order('a'), order('b'), order('c')],
      3,
      ['a'],
      /2 orders were never answered/,
    ],
  ])('fails on %s', (_name, orders, events, answered, message) => {
    expect(() => checkOrders(orders, events, answered, options)).toThrow(message);
  });
});

describe('formatResults for orders', () => {
  it('prints the webhook loads beside the bare route and the downloads beside static', () => {
    const load = (rps: number, p99: number) => ({
      rps,
      p50_ms: 20,
      p99_ms: p99,
      max_ms: 2 * p99,
      errors: 0,
      ratio_to_bare: 0.5,
      p99_ratio_to_bare: 1.5,
    });
    const side = { downloads: 10, mb_per_s: 400, p50_ms: 120, max_ms: 150, rss_growth_mb: 2.5 };
    const text = formatResults({
      orders: {
        pglite: {
          bare: { rps: 600, p50_ms: 10, p99_ms: 60, max_ms: 80, errors: 0 },
          webhook: { ...load(300, 90), drain_s: 4.2, left: 0 },
          replay: load(500, 70),
          check: { orders: 3001, events: 3001, answered: 2990, unanswered: 11 },
          downloads: {
            file_mb: 50,
            rounds: [{ clients: 8, link: side, static: { ...side, mb_per_s: 500 }, ratio: 0.8 }],
          },
        },
      },
    });
    expect(text).toMatch(
      /\| pglite, new sessions\s+\| 300\s+\| 20 ms \| 90 ms \| 180 ms \| 0\s+\| 600\s+\| 60 ms\s+\| 80 ms\s+\| 0\.5\s+\| 1\.5\s+\| 3001 orders \(11 unanswered\), 1 link each; mail 4\.2 s \|/,
    );
    expect(text).toMatch(/\| pglite, replayed event \| 500 /);
    expect(text).toContain(
      '| pglite | 8       | 10        | 400 MB/s, 120 ms (max 150), +2.5 MB | 500 MB/s, 120 ms (max 150), +2.5 MB | 0.8         |',
    );
  });
});

describe('formatResults for memory and start', () => {
  it('prints the memory of each side and the start after a kill', () => {
    const text = formatResults({
      memory: {
        embedded: {
          peak_first_start_pss_mb: 140,
          idle_pss_mb: 110,
          idle_30s_pss_mb: 95,
          app_peak_rss_mb: 150,
          app_idle_pss_mb: 70,
          processes_idle: 9,
        },
      },
      start: {
        embedded: {
          ready_ms_new: 1800,
          ready_ms_existing: 700,
          ready_ms_after_kill: 900,
          rss_mb: 90,
        },
      },
    });
    expect(text).toMatch(
      /\| embedded \| 140 MB\s+\| 110 MB \| 95 MB\s+\| 150 MB \/ 70 MB\s+\| 9\s+\|/,
    );
    expect(text).toMatch(/\| embedded \| 1800 ms\s+\| 700 ms\s+\| 90 MB\s+\| 900 ms\s+\|/);
  });
});

describe('formatResults: balancer', () => {
  const load = (rps: number) => ({
    rps,
    best_rps: rps + 10,
    rounds_rps: [rps, rps + 10],
    p50_ms: 20,
    p99_ms: 90,
    max_ms: 120,
    errors: 0,
    answered: rps * 5,
  });
  it('puts the three setups of each route side by side with their ratios', () => {
    const text = formatResults({
      balancer: {
        cpus: 2,
        template: 'deploy/nginx/soul-reset.conf.template',
        routes: {
          home: { direct: load(1900), nginx_1: load(1700), nginx_3: load(1500) },
          submit: { direct: load(400), nginx_1: load(380), nginx_3: load(420) },
        },
        ratios: {
          home: { nginx_1_to_direct: 0.89, nginx_3_to_nginx_1: 0.88 },
          submit: { nginx_1_to_direct: 0.95, nginx_3_to_nginx_1: 1.11 },
        },
      },
    });
    expect(text).toMatch(/\| home\s+\| nginx_3\s+\| 1500\s+\| 1510\s+\| 1500, 1510\s+\| 20 ms/);
    expect(text).toMatch(/\| submit\s+\| nginx_1\/direct, nginx_3\/nginx_1\s+\| 0.95, 1.11\s+\|/);
    expect(text).toContain('not scaling');
    expect(formatResults({ balancer: { skipped: 'no nginx' } })).toContain('skipped (no nginx)');
  });
});

describe('processTree and pssMb', () => {
  it('finds a process, its child and grandchild, and sums their proportional memory', async () => {
    const child = spawn('sh', ['-c', 'sleep 30 & wait'], { stdio: 'ignore', detached: true });
    try {
      let below = await processTree(child.pid!);
      for (let attempt = 0; below.length < 2 && attempt < 100; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        below = await processTree(child.pid!);
      }
      expect(below).toHaveLength(2);
      const tree = await processTree(process.pid);
      expect(tree[0]).toBe(process.pid);
      expect(tree).toEqual(expect.arrayContaining(below));
      const shell = await pssMb([child.pid!]);
      expect(shell).toBeGreaterThan(0);
      expect(await pssMb(below)).toBeGreaterThan(shell);
    } finally {
      process.kill(-child.pid!, 'SIGKILL');
    }
  });
});
