/**
 * npm run bench [-- --only page|submit|admin|admin-search|start|backup|orders|events] [--out FILE] [--runs N]
 *
 * Starts the built app on free ports with fresh data, measures, prints a table and writes
 * JSON. Every figure is paired with a floor measured in the same run, because the machines
 * it runs on are shared and noisy.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ensureBuild } from '../scripts/ensure-build.mjs';
import { postgresUrl } from './lib/postgres';
import { benchAdmin } from './parts/admin';
import { benchAdminSearch } from './parts/admin-search';
import { benchBackup } from './parts/backup';
import { benchEvents } from './parts/events';
import { benchOrders } from './parts/orders';
import { benchPage } from './parts/page';
import { benchStart } from './parts/start';
import { benchSubmit } from './parts/submit';
import { printResults } from './lib/report';

const PARTS = [
  'page',
  'submit',
  'admin',
  'admin-search',
  'start',
  'backup',
  'orders',
  'events',
] as const;
type Part = (typeof PARTS)[number];

const root = fileURLToPath(new URL('..', import.meta.url));
const { values } = parseArgs({
  options: {
    only: { type: 'string', multiple: true },
    out: { type: 'string', default: path.join(root, 'bench/results/latest.json') },
    runs: { type: 'string', default: '5' },
  },
});
const only = (values.only ?? []).flatMap((value) => value.split(','));
for (const part of only) {
  if (!PARTS.includes(part as Part)) {
    console.error(`Unknown part "${part}": choose from ${PARTS.join(', ')}.`);
    process.exit(2);
  }
}
const selected = (part: Part) => only.length === 0 || only.includes(part);
const runs = Number(values.runs);

await ensureBuild(root);
const pg = postgresUrl();
const results: Record<string, unknown> = {
  started_at: new Date().toISOString(),
  machine: { cpus: os.cpus().length, node: process.version },
};
const scratchDir = await mkdtemp(path.join(os.tmpdir(), 'soul-reset-bench-'));
try {
  if (selected('page')) {
    console.log(
      `page: Lighthouse mobile, ${runs} rounds of home, its no-script floor and routes...`,
    );
    results.page = await benchPage(root, runs, path.join(scratchDir, 'page'));
  }
  if (selected('submit')) {
    console.log('submit: PGlite...');
    const submit: Record<string, unknown> = {
      pglite: await benchSubmit(root, path.join(scratchDir, 'submit-pglite')),
    };
    if (pg) {
      console.log('submit: PostgreSQL...');
      submit.postgres = await benchSubmit(root, path.join(scratchDir, 'submit-postgres'), pg);
    }
    results.submit = submit;
  }
  if (selected('admin')) {
    console.log('admin: PGlite, 10,000 and 100,000 rows...');
    const admin: Record<string, unknown> = {
      pglite: await benchAdmin(root, path.join(scratchDir, 'admin-pglite'), [10_000, 100_000]),
    };
    if (pg) {
      console.log('admin: PostgreSQL, 10,000, 100,000 and 1,000,000 rows...');
      admin.postgres = await benchAdmin(
        root,
        path.join(scratchDir, 'admin-postgres'),
        [10_000, 100_000, 1_000_000],
        pg,
      );
    }
    results.admin = admin;
  }
  if (selected('admin-search')) {
    const sizes = (process.env.BENCH_ADMIN_SEARCH_ROWS ?? '300000,1000000').split(',').map(Number);
    console.log(`admin-search: PGlite, ${sizes.join(' and ')} rows...`);
    const search: Record<string, unknown> = {
      pglite: await benchAdminSearch(root, path.join(scratchDir, 'search-pglite'), sizes),
    };
    if (pg) {
      console.log(`admin-search: PostgreSQL, ${sizes.join(' and ')} rows...`);
      search.postgres = await benchAdminSearch(root, path.join(scratchDir, 'search-pg'), sizes, pg);
    }
    results.admin_search = search;
  }
  if (selected('start')) {
    console.log('start: PGlite...');
    const start: Record<string, unknown> = { pglite: await benchStart(root) };
    if (pg) {
      console.log('start: PostgreSQL...');
      start.postgres = await benchStart(root, pg);
    }
    results.start = start;
  }
  if (selected('backup')) {
    console.log('backup: PGlite, 1,000,000 rows...');
    const backup: Record<string, unknown> = {
      pglite: await benchBackup(root, path.join(scratchDir, 'backup-pglite'), 1_000_000),
    };
    if (pg) {
      console.log('backup: PostgreSQL, 1,000,000 rows...');
      backup.postgres = await benchBackup(
        root,
        path.join(scratchDir, 'backup-postgres'),
        1_000_000,
        pg,
      );
    }
    results.backup = backup;
  }
  if (selected('orders')) {
    console.log('orders: PGlite, webhook loads and 50 MB downloads...');
    const orders: Record<string, unknown> = {
      pglite: await benchOrders(root, path.join(scratchDir, 'orders-pglite')),
    };
    if (pg) {
      console.log('orders: PostgreSQL, webhook loads and 50 MB downloads...');
      orders.postgres = await benchOrders(root, path.join(scratchDir, 'orders-postgres'), pg);
    }
    results.orders = orders;
  }
  if (selected('events')) {
    console.log("events: PGlite, the collector's page views against the bare route...");
    const events: Record<string, unknown> = {
      pglite: await benchEvents(root, path.join(scratchDir, 'events-pglite')),
    };
    if (pg) {
      console.log('events: PostgreSQL...');
      events.postgres = await benchEvents(root, path.join(scratchDir, 'events-postgres'), pg);
    }
    results.events = events;
  }
} finally {
  await rm(scratchDir, { recursive: true, force: true });
}

await mkdir(path.dirname(path.resolve(values.out)), { recursive: true });
await writeFile(path.resolve(values.out), `${JSON.stringify(results, null, 2)}\n`);
printResults(results);
console.log(`\nJSON written to ${path.relative(process.cwd(), path.resolve(values.out))}`);
