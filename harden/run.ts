/**
 * npm run harden [-- --only fuzz|faults|crash|soak|rolling|broadcast] [--quick] [--out FILE]
 *
 * Attacks and breaks the built app (fuzzed inputs, mail and database faults, a killed
 * process under load, a sustained mixed load, rolling restarts of three instances behind
 * HAProxy and behind nginx, broadcasts through kill -9, restarts and unsubscribes), prints a
 * summary table, writes JSON, and
 * exits 1 when any check failed.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ensureBuild } from '../scripts/ensure-build.mjs';
import { postgresUrl } from '../bench/lib/postgres';
import type { HardenCheck, HardenPart } from './part';
import { makeTempDir } from '../tests/support/temp-dir';

const PARTS: Record<string, () => Promise<HardenPart>> = {
  fuzz: async () => (await import('./parts/fuzz')).fuzz,
  faults: async () => (await import('./parts/faults')).faults,
  crash: async () => (await import('./parts/crash')).crash,
  soak: async () => (await import('./parts/soak')).soak,
  rolling: async () => (await import('./parts/rolling')).rolling,
  broadcast: async () => (await import('./parts/broadcast')).broadcast,
};

const root = fileURLToPath(new URL('..', import.meta.url));
const { values } = parseArgs({
  options: {
    only: { type: 'string', multiple: true },
    quick: { type: 'boolean', default: false },
    out: { type: 'string', default: path.join(root, 'harden/results/latest.json') },
  },
});
const only = (values.only ?? []).flatMap((value) => value.split(','));
for (const part of only) {
  if (!(part in PARTS)) {
    console.error(`Unknown part "${part}": choose from ${Object.keys(PARTS).join(', ')}.`);
    process.exit(2);
  }
}

await ensureBuild(root);
const started = Date.now();
const scratch = await makeTempDir('soul-reset-harden-');
const results: Record<string, HardenCheck[]> = {};
try {
  for (const [name, load] of Object.entries(PARTS)) {
    if (only.length > 0 && !only.includes(name)) continue;
    console.log(`${name}...`);
    const scratchDir = path.join(scratch, name);
    await mkdir(scratchDir, { recursive: true });
    const part = await load();
    try {
      results[name] = await part({
        root,
        scratchDir,
        postgresAdminUrl: postgresUrl(),
        quick: values.quick,
      });
    } catch (error) {
      results[name] = [{ check: `${name} ran to the end`, result: String(error), ok: false }];
    }
  }
} finally {
  await rm(scratch, { recursive: true, force: true });
}

const checks = Object.entries(results).flatMap(([part, list]) =>
  list.map((check) => ({ part, ...check })),
);
const widths = [4, 5, 6, 2].map((min, column) =>
  Math.max(
    min,
    ...checks.map((c) => [c.part, c.check, c.result, c.ok ? 'ok' : 'FAILED'][column]!.length),
  ),
);
const line = (cells: string[]) =>
  `| ${cells.map((cell, column) => cell.padEnd(widths[column]!)).join(' | ')} |`;
console.log(
  [
    '',
    line(['part', 'check', 'result', 'ok']),
    `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`,
    ...checks.map((c) => line([c.part, c.check, c.result, c.ok ? 'ok' : 'FAILED'])),
  ].join('\n'),
);
const seconds = Math.round((Date.now() - started) / 1000);
await mkdir(path.dirname(path.resolve(values.out)), { recursive: true });
await writeFile(
  path.resolve(values.out),
  `${JSON.stringify({ started_at: new Date(started).toISOString(), seconds, results }, null, 2)}\n`,
);
const failed = checks.filter((c) => !c.ok).length;
console.log(`\n${checks.length} checks, ${failed} failed, in ${seconds} s.`);
process.exit(failed > 0 ? 1 : 0);
