import { spawn } from 'node:child_process';
import { mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import { openDatabase, type DatabaseOptions } from '../../src/server/db/database';
import { migrate } from '../../src/server/db/migrate';
import { createScratchDatabase } from '../lib/postgres';
import { sizes } from '../lib/sizes';
import { round } from '../lib/stats';

const BATCH = 100_000;
/**
 * Rows of form_submissions backed up and restored: enough for the backup's memory to show it
 * stays at the floor (rows are streamed a thousand at a time) and for times to compare with
 * pg_dump's; the admin parts measure the million-row table.
 */
const SIZES = { full: { rows: 300_000 }, quick: { rows: 5_000 } };

type Run = { seconds: number; peak_rss_mb: number };
export type BackupResult = {
  rows: number;
  /** Floor: the same process opening the database and doing nothing (db:migrate, up to date). */
  open_only: Run;
  backup: Run & { file_mb: number };
  restore: Run;
  /** Reference on PostgreSQL: pg_dump's custom format and pg_restore, same data. */
  pg_dump?: Run & { file_mb: number };
  pg_restore?: Run;
};

/** Fills form_submissions to `rows` rows with generated submissions, in batches. */
async function fill(options: DatabaseOptions, rows: number) {
  const database = await openDatabase(options);
  try {
    await migrate(database.db);
    for (let done = 0; done < rows; done += BATCH) {
      await sql`
        insert into form_submissions
          (name, email, message, purchase_intent, email_sent, email_sent_at, notes, created_at, updated_at)
        select 'Visitor ' || g, 'visitor-' || g || '@example.com',
               'I would like to know more about the bundle.' || E'\n' || 'Thank you ✓', g % 2 = 0,
               g % 3 = 0, case when g % 3 = 0 then now() end, '', now(), now()
        from generate_series(${done + 1}::int, ${Math.min(done + BATCH, rows)}::int) as g`.execute(
        database.db,
      );
    }
  } finally {
    await database.close();
  }
}

/** Runs a command under /usr/bin/time: wall seconds and peak resident memory. */
function timed(command: string, args: string[], env: Record<string, string>): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn('/usr/bin/time', ['-f', 'TIMED %e %M', command, ...args], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'production', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.once('close', (code) => {
      const match = /TIMED ([\d.]+) (\d+)/.exec(output);
      if (code !== 0 || !match)
        reject(new Error(`${command} ${args.join(' ')} failed:\n${output}`));
      else
        resolve({
          seconds: round(Number(match[1]), 2),
          peak_rss_mb: round(Number(match[2]) / 1024, 0),
        });
    });
  });
}

const mb = async (file: string) => round((await stat(file)).size / 1024 / 1024, 1);

/**
 * npm run db:backup and db:restore (the built commands, each in a process of its own) on a
 * database of `rows` submissions, on the embedded database or on PostgreSQL.
 */
export async function benchBackup(
  root: string,
  dir: string,
  postgresAdminUrl?: string,
): Promise<BackupResult> {
  const { rows } = sizes(SIZES);
  await mkdir(dir, { recursive: true });
  const cli = path.join(root, 'dist/server/backup-cli.js');
  const secret = { AUTH_SECRET: 'bench-secret-bench-secret-bench-secret' };
  const file = path.join(dir, 'backup.jsonl.gz');
  if (!postgresAdminUrl) {
    const source = { DATA_DIR: path.join(dir, 'source'), ...secret };
    await fill({ dataDir: source.DATA_DIR }, rows);
    const openOnly = await timed(
      process.execPath,
      [path.join(root, 'dist/server/migrate-cli.js')],
      source,
    );
    const backup = await timed(process.execPath, [cli, 'backup', '--out', file], source);
    const restore = await timed(process.execPath, [cli, 'restore', '--in', file], {
      DATA_DIR: path.join(dir, 'restored'),
      ...secret,
    });
    return { rows, open_only: openOnly, backup: { ...backup, file_mb: await mb(file) }, restore };
  }
  const source = await createScratchDatabase(postgresAdminUrl);
  const target = await createScratchDatabase(postgresAdminUrl);
  const reference = await createScratchDatabase(postgresAdminUrl);
  try {
    await fill({ databaseUrl: source.url }, rows);
    const env = { DATABASE_URL: source.url, DATA_DIR: path.join(dir, 'unused'), ...secret };
    const openOnly = await timed(
      process.execPath,
      [path.join(root, 'dist/server/migrate-cli.js')],
      env,
    );
    const backup = await timed(process.execPath, [cli, 'backup', '--out', file], env);
    const restore = await timed(process.execPath, [cli, 'restore', '--in', file], {
      ...env,
      DATABASE_URL: target.url,
    });
    const dump = path.join(dir, 'reference.dump');
    const pgDump = await timed('pg_dump', ['-Fc', '-f', dump, source.url], {});
    const pgRestore = await timed('pg_restore', ['-d', reference.url, dump], {});
    return {
      rows,
      open_only: openOnly,
      backup: { ...backup, file_mb: await mb(file) },
      restore,
      pg_dump: { ...pgDump, file_mb: await mb(dump) },
      pg_restore: pgRestore,
    };
  } finally {
    await source.drop();
    await target.drop();
    await reference.drop();
  }
}
