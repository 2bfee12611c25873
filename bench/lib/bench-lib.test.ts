import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { firstLoadBytes } from './first-load-bytes';
import { stripScripts } from './floor';
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
          bare: { rps: 1200, p50_ms: 30, p99_ms: 90, errors: 0 },
        },
      },
    });
    expect(text).toContain('| pglite | 3500 ms    | 1500 ms         | 320 MB   |');
    expect(text).toMatch(
      /\| postgres \| 900\s+\| 40 ms \| 120 ms \| 0\s+\| 1200\s+\| 90 ms\s+\| 0\.75\s+\|/,
    );
  });
});
