// npm run db:backup -- --out FILE | db:restore -- --in FILE | db:copy -- --to URL
// (scripts/backup.mjs passes the command first). One line on success, one on failure.
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import * as z from 'zod/mini';
import { ConfigError, loadConfig, type Config } from '../config/load-config';
import { DataDirLockedError } from '../db/data-dir-lock';
import {
  databaseOptions,
  describePostgresUrl,
  openDatabase,
  type AppDatabase,
} from '../db/database';
import { EmbeddedPostgresError } from '../db/embedded-postgres';
import { isDatabaseUnavailable } from '../http/errors';
import { BackupFileError, RestoreRefusedError, backupFileName } from './backup-format';
import { importPGliteIfPresent } from './import-pglite';
import { loadBackup } from './load-backup';
import { readBackupFile } from './read-backup-file';
import { readSnapshot } from './read-snapshot';
import { writeBackupFile, type BackupSummary } from './write-backup-file';
import { errorMessage } from '../../shared/error-message';

type Command = 'backup' | 'restore' | 'copy';

const USAGE =
  'Usage: npm run db:backup -- --out FILE | npm run db:restore -- --in FILE | npm run db:copy -- --to postgres://...';

const VERB: Record<Command, string> = {
  backup: 'Cannot back up',
  restore: 'Cannot restore',
  copy: 'Cannot copy',
};

const LOCKED: Record<Command, (dir: string) => string> = {
  backup: (dir) =>
    `the site is running on the data directory ${dir}: download a backup from the admin (Admin → Backup, "Download backup"), or stop the site and run this again.`,
  restore: (dir) => `the site is running on the data directory ${dir}: stop it first.`,
  copy: (dir) =>
    `the site is running on the data directory ${dir}: stop it first, so no submission arrives after the copy, then run this again.`,
};

const postgresUrl = z.string().check(
  z.refine((value) => /^postgres(ql)?:\/\/\S+$/.test(value) && URL.canParse(value), {
    error: 'must be a PostgreSQL URL such as postgres://user:password@host:5432/database',
  }),
);

class UsageError extends Error {}

/** Where the error happened, so "cannot be reached" names the right database. */
class Unreachable extends Error {
  constructor(
    readonly where: string,
    readonly reason: unknown,
  ) {
    super(`the database at ${where} cannot be reached (${errorMessage(reason)}).`);
  }
}

function summary(result: BackupSummary) {
  return `${result.tables} tables, ${result.rows.toLocaleString('en')} rows`;
}

async function reachable(database: AppDatabase, where: string) {
  try {
    await database.ping();
  } catch (error) {
    throw isDatabaseUnavailable(error) ? new Unreachable(where, error) : error;
  }
}

function configuredPlace(config: Config) {
  return config.databaseUrl ? describePostgresUrl(config.databaseUrl) : config.dataDir;
}

async function run(command: Command, args: string[], config: Config): Promise<string> {
  const { values } = (() => {
    try {
      return parseArgs({
        args,
        options: { out: { type: 'string' }, in: { type: 'string' }, to: { type: 'string' } },
      });
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
  })();

  if (command === 'backup') {
    const file = path.resolve(values.out ?? backupFileName(new Date()));
    const source = await openDatabase(databaseOptions(config, importPGliteIfPresent));
    try {
      await reachable(source, configuredPlace(config));
      const result = await writeBackupFile(readSnapshot(source.db, source.kind), file);
      const { size } = await stat(file);
      return `Backed up ${summary(result)} of ${source.label} to ${file} (${(size / 1024 / 1024).toFixed(1)} MB).`;
    } finally {
      await source.close();
    }
  }

  if (command === 'restore') {
    if (!values.in) throw new UsageError('--in FILE is required.');
    const file = path.resolve(values.in);
    const target = await openDatabase(databaseOptions(config, importPGliteIfPresent));
    try {
      await reachable(target, configuredPlace(config));
      const result = await loadBackup(target.db, readBackupFile(file));
      return `Restored ${summary(result)} from ${file} into ${target.label}; row counts checked.`;
    } finally {
      await target.close();
    }
  }

  const parsed = postgresUrl.safeParse(values.to);
  if (!parsed.success) throw new UsageError(`--to ${parsed.error.issues[0]!.message}.`);
  const to = parsed.data;
  if (config.databaseUrl && describePostgresUrl(config.databaseUrl) === describePostgresUrl(to)) {
    throw new RestoreRefusedError('--to is the database the site already uses.');
  }
  const target = await openDatabase({ databaseUrl: to, poolSize: 1 });
  try {
    await reachable(target, describePostgresUrl(to));
    const source = await openDatabase(databaseOptions(config, importPGliteIfPresent));
    try {
      await reachable(source, configuredPlace(config));
      const result = await loadBackup(target.db, readSnapshot(source.db, source.kind));
      return `Copied ${summary(result)} from ${source.label} to ${target.label}; row counts checked. To run the site on it, set DATABASE_URL to that URL.`;
    } finally {
      await source.close();
    }
  } finally {
    await target.close();
  }
}

function describeFailure(command: Command, error: unknown, config: Config | undefined): string {
  if (error instanceof DataDirLockedError && config) return LOCKED[command](config.dataDir);
  if (
    error instanceof UsageError ||
    error instanceof ConfigError ||
    error instanceof BackupFileError ||
    error instanceof RestoreRefusedError ||
    error instanceof Unreachable ||
    error instanceof DataDirLockedError ||
    error instanceof EmbeddedPostgresError
  ) {
    return error.message;
  }
  if (config?.databaseUrl && isDatabaseUnavailable(error)) {
    return new Unreachable(describePostgresUrl(config.databaseUrl), error).message;
  }
  const message = errorMessage(error);
  return message.split('\n')[0]!;
}

const [command, ...args] = process.argv.slice(2);
if (command !== 'backup' && command !== 'restore' && command !== 'copy') {
  console.error(USAGE);
  process.exit(2);
}
let config: Config | undefined;
try {
  config = loadConfig();
  console.log(await run(command, args, config));
} catch (error) {
  const reason = describeFailure(command, error, config);
  // "Cannot restore: the file ..." reads as one sentence; a leading acronym (DATA_DIR) keeps its case.
  const sentence = /^[A-Z][a-z]/.test(reason) ? reason[0]!.toLowerCase() + reason.slice(1) : reason;
  console.error(`${VERB[command]}: ${sentence}`);
  if (error instanceof UsageError) console.error(USAGE);
  process.exit(error instanceof UsageError ? 2 : 1);
}
