/**
 * One database's share of the fuzz part, in a process of its own so that the two databases
 * use both cores: `node --import tsx harden/fuzz/fuzz-database.ts --kind embedded-postgres|postgres
 * [--url URL] --runs N --data-dir DIR`. Prints progress to stderr and the result as JSON on
 * stdout.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadTableConfigurations } from '../../src/server/admin/tables/table-configurations';
import { tableConfigurationsDir } from '../../src/server/app';
import { loadConfig } from '../../src/server/config/load-config';
import { openDatabase } from '../../src/server/db/database';
import { migrate } from '../../src/server/db/migrate';
import { fuzzApp } from '../../tests/support/fuzz/fuzz-app';
import { TEST_WEBHOOK_SECRET } from '../../tests/support/stripe-events';
import { buildTestApp } from '../../tests/support/test-app';

export const ADMIN_EMAIL = 'owner@example.com';

const { values } = parseArgs({
  options: {
    kind: { type: 'string' },
    url: { type: 'string' },
    runs: { type: 'string' },
    'data-dir': { type: 'string' },
  },
});
const kind = values.kind === 'postgres' ? 'postgres' : 'embedded-postgres';
const runs = Number(values.runs);
const dataDir = path.resolve(values['data-dir'] ?? '.');

const database = await openDatabase(
  kind === 'postgres' && values.url
    ? { databaseUrl: values.url }
    : { dataDir: path.join(dataDir, 'database') },
);
await migrate(database.db);
const tables = await loadTableConfigurations(tableConfigurationsDir);
// No SMTP_URL: mail goes to DATA_DIR/outbox. Every request comes from an address of its own,
// and the form limit is out of reach, so that limits do not answer in place of the routes.
const config = loadConfig({
  NODE_ENV: 'production',
  LOG_LEVEL: 'silent',
  DATA_DIR: dataDir,
  ADMIN_EMAILS: ADMIN_EMAIL,
  AUTH_SECRET: randomBytes(32).toString('hex'),
  FORM_RATE_LIMIT: String(runs * 10),
  STRIPE_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
});
const app = await buildTestApp(database, { config, tables });
const started = Date.now();
let last = started;
try {
  const result = await fuzzApp(app, {
    runs,
    adminEmail: ADMIN_EMAIL,
    tables,
    onReport(report) {
      const now = Date.now();
      console.error(
        `  ${kind}: ${report.route}: ${report.inputs} inputs in ${((now - last) / 1000).toFixed(1)} s${report.failure ? ` — ${report.failure.slice(0, 300)}` : ''}`,
      );
      last = now;
    },
  });
  process.stdout.write(
    `${JSON.stringify({ kind, seconds: (Date.now() - started) / 1000, ...result })}\n`,
  );
} finally {
  await app.close();
  await database.close();
}
