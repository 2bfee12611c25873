import { execFile } from 'node:child_process';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../../tests/support/test-config';
import { openDatabase } from '../db/database';
import { startServer } from '../server';
import { appTables } from './app-tables';
import { makeTempDir } from '../../../tests/support/temp-dir';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const cli = path.join(root, 'src/server/backup/backup-cli.ts');

type Outcome = { code: number; stdout: string; stderr: string };

/** The command as `npm run db:…` runs it, from the sources, in a process of its own. */
function runCli(args: string[], env: Record<string, string>): Promise<Outcome> {
  const inherited = { ...process.env };
  delete inherited.DATABASE_URL;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', cli, ...args],
      { cwd: root, env: { ...inherited, NODE_ENV: 'test', LOG_LEVEL: 'silent', ...env } },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** One line on standard error, nothing else: what an owner sees when a command refuses. */
function expectOneLine(outcome: Outcome, message: RegExp) {
  expect(outcome.code, outcome.stderr).toBe(1);
  expect(outcome.stderr.trim().split('\n')).toHaveLength(1);
  expect(outcome.stderr).toMatch(message);
}

describe('npm run db:backup / db:restore (embedded database, real processes)', () => {
  let dir: string;
  let dataDir: string;
  beforeAll(async () => {
    dir = await makeTempDir('soul-reset-backup-cli-');
    const config = await testConfig({ PORT: '0' });
    dataDir = config.dataDir;
    const server = await startServer(config);
    try {
      await server.database.db
        .insertInto('refund_inquiries')
        .values([
          { name: 'Ada', email: 'ada@example.com', message: 'Line one\nline two ✓' },
          { name: 'Bo', email: 'bo@example.com' },
        ])
        .execute();
      // While the site runs, the data directory is its own: the command points at the admin.
      const busy = await runCli(['backup', '--out', path.join(dir, 'busy.gz')], {
        DATA_DIR: dataDir,
      });
      expectOneLine(
        busy,
        /^Cannot back up: the site is running on the data directory .*Admin → Backup/,
      );
    } finally {
      await server.close();
    }
  }, 120_000);
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('backs up a stopped site, restores into a new data directory, and refuses to restore twice', async () => {
    const file = path.join(dir, 'site.jsonl.gz');
    const backup = await runCli(['backup', '--out', file], { DATA_DIR: dataDir });
    expect(backup.code, backup.stderr).toBe(0);
    expect(backup.stdout).toMatch(/^Backed up \d+ tables, \d+ rows of embedded PostgreSQL 17 in /);

    const restoredDir = path.join(dir, 'restored');
    const restore = await runCli(['restore', '--in', file], { DATA_DIR: restoredDir });
    expect(restore.code, restore.stderr).toBe(0);
    expect(restore.stdout).toMatch(/^Restored \d+ tables, \d+ rows from .*; row counts checked\./);

    const again = await runCli(['restore', '--in', file], { DATA_DIR: restoredDir });
    expectOneLine(
      again,
      /^Cannot restore: the target database is not empty \(refund_inquiries has rows\)/,
    );

    const restored = await openDatabase({ dataDir: restoredDir });
    try {
      const rows = await restored.db
        .selectFrom('refund_inquiries')
        .select(['id', 'name', 'message'])
        .orderBy('id')
        .execute();
      expect(rows).toEqual([
        { id: 1, name: 'Ada', message: 'Line one\nline two ✓' },
        { id: 2, name: 'Bo', message: '' },
      ]);
    } finally {
      await restored.close();
    }
  }, 120_000);

  it('refuses a truncated file in one line and leaves the new data directory empty and usable', async () => {
    const file = path.join(dir, 'site.jsonl.gz');
    const cut = path.join(dir, 'cut.jsonl.gz');
    const bytes = await readFile(file);
    await writeFile(cut, bytes.subarray(0, bytes.length - 10));
    const target = path.join(dir, 'cut-target');
    const outcome = await runCli(['restore', '--in', cut], { DATA_DIR: target });
    expectOneLine(outcome, /^Cannot restore: the backup file .* is (incomplete|damaged)/);

    const database = await openDatabase({ dataDir: target });
    try {
      expect(await appTables(database.db)).toEqual([]);
      const migrations = await sql<{ found: boolean }>`
        select to_regclass('schema_migrations') is not null as found`.execute(database.db);
      expect(migrations.rows[0]!.found).toBe(false);
    } finally {
      await database.close();
    }
    // Usable: the good file restores into it afterwards.
    const retry = await runCli(['restore', '--in', file], { DATA_DIR: target });
    expect(retry.code, retry.stderr).toBe(0);
  }, 120_000);

  it('refuses an unreachable target and a bad --to in one line', async () => {
    const unreachable = await runCli(['copy', '--to', 'postgres://postgres@127.0.0.1:1/nowhere'], {
      DATA_DIR: dataDir,
    });
    expectOneLine(
      unreachable,
      /^Cannot copy: the database at 127\.0\.0\.1:1\/nowhere cannot be reached/,
    );
    const badUrl = await runCli(['copy', '--to', 'mysql://somewhere'], { DATA_DIR: dataDir });
    expect(badUrl.code).toBe(2);
    expect(badUrl.stderr).toMatch(/^Cannot copy: --to must be a PostgreSQL URL/);
  }, 120_000);
});
