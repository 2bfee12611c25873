/**
 * npm run bench [-- --only page|memory|start|submit|orders|admin|admin-search|backup|events|insights|balancer|store|list|broadcast]
 *   [--out FILE] [--runs N] [--reference] [--quick]
 *
 * Starts the built app on free ports with fresh data, measures, prints a table and writes
 * JSON. Every figure is paired with a floor measured in the same run, because the machines
 * it runs on are shared and noisy. --quick runs every part at smoke sizes (each part's
 * `quick` sizes), on the embedded database only, without the PGlite release: about two
 * minutes, to check that the bench works, not to compare figures.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ensureBuild } from '../scripts/ensure-build.mjs';
import { makeTempDir } from '../tests/support/temp-dir';
import { PGLITE_RELEASE, preparePgliteRelease } from './lib/pglite-release';
import { postgresUrl } from './lib/postgres';
import { benchAdmin } from './parts/admin';
import { benchAdminSearch } from './parts/admin-search';
import { benchBackup } from './parts/backup';
import { benchBalancer } from './parts/balancer';
import { benchBroadcast } from './parts/broadcast';
import { benchEvents } from './parts/events';
import { benchInsights } from './parts/insights';
import { benchList } from './parts/list';
import { benchMemory } from './parts/memory';
import { benchOrders } from './parts/orders';
import { benchPage } from './parts/page';
import { benchStart } from './parts/start';
import { benchStore } from './parts/store';
import { benchSubmit } from './parts/submit';
import { printResults } from './lib/report';
import { useQuickSizes } from './lib/sizes';

const PARTS = [
  'page',
  'memory',
  'start',
  'submit',
  'orders',
  'admin',
  'admin-search',
  'backup',
  'events',
  'insights',
  'balancer',
  'store',
  'list',
  'broadcast',
] as const;
type Part = (typeof PARTS)[number];

const root = fileURLToPath(new URL('..', import.meta.url));
const { values } = parseArgs({
  options: {
    only: { type: 'string', multiple: true },
    out: { type: 'string', default: path.join(root, 'bench/results/latest.json') },
    runs: { type: 'string' },
    reference: { type: 'boolean', default: false },
    // Accepted for old command lines: the PGlite release is now measured only on request.
    'no-reference': { type: 'boolean', default: false },
    quick: { type: 'boolean', default: false },
  },
});
const quick = values.quick;
useQuickSizes(quick);
const only = (values.only ?? []).flatMap((value) => value.split(','));
for (const part of only) {
  if (!PARTS.includes(part as Part)) {
    console.error(`Unknown part "${part}": choose from ${PARTS.join(', ')}.`);
    process.exit(2);
  }
}
const selected = (part: Part) => only.length === 0 || only.includes(part);
const runs = Number(values.runs ?? (quick ? 1 : 5));

/** The commit measured, and whether the checkout had changes beside it. */
function commitOf(): { sha: string; dirty: boolean } | undefined {
  try {
    const git = (...args: string[]) =>
      execFileSync('git', args, {
        cwd: root,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      });
    return {
      sha: git('rev-parse', 'HEAD').trim(),
      dirty: git('status', '--porcelain').trim() !== '',
    };
  } catch {
    return undefined;
  }
}

await ensureBuild(root);
// A quick run stays on the embedded database (the balancer, which needs a server, excepted).
const pg = quick ? undefined : postgresUrl();
const results: Record<string, unknown> = {
  started_at: new Date().toISOString(),
  commit: commitOf(),
  machine: {
    cpus: os.cpus().length,
    cpu_model: os.cpus()[0]?.model.trim(),
    memory_gb: Math.round(os.totalmem() / 1024 ** 3),
    os: `${os.type()} ${os.release()}`,
    node: process.version,
    load_average: os.loadavg().map((load) => Math.round(load * 10) / 10),
  },
  ...(quick && { quick: true }),
  ...(only.length > 0 && { options: { only } }),
};
const scratchDir = await makeTempDir('soul-reset-bench-');
const dir = (name: string) => path.join(scratchDir, name);

// The release before the embedded server, built once from history, beside today's app in the
// parts whose figures it is measured against (memory, start, submit, orders).
let reference: Promise<{ root: string } | { skipped: string }> | undefined;
async function pgliteRoot(): Promise<string | undefined> {
  if (!values.reference || values['no-reference'] || quick) return undefined;
  reference ??=
    (console.log(`reference: building the PGlite release (${PGLITE_RELEASE})...`),
    preparePgliteRelease(root, dir('pglite-release')));
  const prepared = await reference;
  if ('skipped' in prepared) {
    console.log(`reference skipped: ${prepared.skipped}`);
    return undefined;
  }
  return prepared.root;
}

/** The part on the embedded server, the PGlite release when asked, and PostgreSQL if set. */
async function sides<T>(
  name: string,
  measure: (side: { dataDir: string; postgres?: string; serverRoot?: string }) => Promise<T>,
  options: { reference?: boolean } = {},
): Promise<Record<string, T>> {
  const out: Record<string, T> = {};
  console.log(`${name}: embedded PostgreSQL...`);
  out.embedded = await measure({ dataDir: dir(`${name}-embedded`) });
  const pglite = options.reference ? await pgliteRoot() : undefined;
  if (pglite) {
    console.log(`${name}: PGlite release...`);
    out.pglite = await measure({ dataDir: dir(`${name}-pglite`), serverRoot: pglite });
  }
  if (pg) {
    console.log(`${name}: PostgreSQL server...`);
    out.postgres = await measure({ dataDir: dir(`${name}-postgres`), postgres: pg });
  }
  return out;
}

const seconds: Record<string, number> = {};
/** Runs a selected part, keeps its results under its name and how long it took. */
async function part(name: Part, measure: () => Promise<unknown>) {
  if (!selected(name)) return;
  const started = performance.now();
  results[name.replace('-', '_')] = await measure();
  seconds[name] = Math.round((performance.now() - started) / 1000);
}

try {
  await part('page', () => {
    console.log(
      `page: Lighthouse mobile, ${runs} rounds of home, its no-script floor and routes...`,
    );
    return benchPage(root, runs, dir('page'));
  });
  await part('memory', async () => {
    console.log('memory: embedded PostgreSQL...');
    const memory: Record<string, unknown> = { embedded: await benchMemory(root) };
    const pglite = await pgliteRoot();
    if (pglite) {
      console.log('memory: PGlite release...');
      memory.pglite = await benchMemory(root, pglite);
    }
    return memory;
  });
  await part('start', () =>
    sides('start', ({ postgres, serverRoot }) => benchStart(root, postgres, serverRoot), {
      reference: true,
    }),
  );
  await part('submit', () =>
    sides(
      'submit',
      ({ dataDir, postgres, serverRoot }) => benchSubmit(root, dataDir, postgres, serverRoot),
      { reference: true },
    ),
  );
  await part('orders', () =>
    sides(
      'orders',
      ({ dataDir, postgres, serverRoot }) => benchOrders(root, dataDir, postgres, serverRoot),
      { reference: true },
    ),
  );
  await part('admin', () =>
    sides('admin', ({ dataDir, postgres }) => benchAdmin(root, dataDir, postgres)),
  );
  await part('admin-search', () =>
    sides('admin-search', ({ dataDir, postgres }) => benchAdminSearch(root, dataDir, postgres)),
  );
  await part('backup', () =>
    sides('backup', ({ dataDir, postgres }) => benchBackup(root, dataDir, postgres)),
  );
  await part('events', () =>
    sides('events', ({ dataDir, postgres }) => benchEvents(root, dataDir, postgres)),
  );
  await part('insights', () =>
    sides('insights', ({ dataDir, postgres }) => benchInsights(root, dataDir, postgres)),
  );
  await part('balancer', () => {
    console.log('balancer: one instance, nginx in front of one, nginx in front of three...');
    return benchBalancer(root, dir('balancer'), postgresUrl());
  });
  await part('store', () =>
    sides('store', ({ dataDir, postgres }) => benchStore(root, dataDir, postgres)),
  );
  await part('list', () =>
    sides('list', ({ dataDir, postgres }) => benchList(root, dataDir, postgres)),
  );
  await part('broadcast', async () => {
    const bySide = await sides('broadcast', ({ dataDir, postgres }) =>
      benchBroadcast(root, dataDir, postgres),
    );
    // DESIGN.md's keys (broadcast.messages_per_second, …) are the embedded default's figures;
    // each side stays under its own name as well.
    return { ...bySide.embedded, ...bySide };
  });
} finally {
  await rm(scratchDir, { recursive: true, force: true });
}

results.seconds = seconds;
await mkdir(path.dirname(path.resolve(values.out)), { recursive: true });
await writeFile(path.resolve(values.out), `${JSON.stringify(results, null, 2)}\n`);
printResults(results);
console.log(
  `\nSeconds per part: ${Object.entries(seconds)
    .map(([name, s]) => `${name} ${s}`)
    .join(
      ', ',
    )}; ${Math.round(performance.now() / 1000)} s in all (with the build and the reference).`,
);
console.log(`\nJSON written to ${path.relative(process.cwd(), path.resolve(values.out))}`);
