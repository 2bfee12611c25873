import type { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect, type PostgresPool } from 'kysely';
import { cp, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { lockDataDir } from '../db/data-dir-lock';
import { appliedMigrations } from '../db/migrate';
import type { Database } from '../db/schema';
import { loadBackup } from './load-backup';
import { readSnapshot } from './read-snapshot';

/** Where versions before the embedded PostgreSQL kept their data, and the lock they held. */
export const PGLITE_DIR = 'pglite';
const PGLITE_LOCK = 'pglite.lock';

/**
 * Carries the data an earlier version kept in DATA_DIR/pglite into `target`, the new embedded
 * server's database, when that database is still empty: as a backup and restore in one go
 * (every row, identity sequences continuing where they were). The import works on a copy, so
 * the old folder stays exactly as it was until the owner deletes it. One transaction: a
 * failure leaves `target` empty, and the next start tries again.
 */
export async function importPGliteIfPresent(
  dataDir: string,
  target: Kysely<Database>,
  notify: (line: string) => void,
): Promise<void> {
  const source = path.join(dataDir, PGLITE_DIR);
  if (!(await stat(path.join(source, 'PG_VERSION')).catch(() => null))) return;
  if ((await appliedMigrations(target)).length > 0) return;

  // An earlier version still running on this folder would go on writing to it.
  const lock = await lockDataDir(dataDir, PGLITE_LOCK);
  const copy = path.join(dataDir, '.pglite-import');
  try {
    await rm(copy, { recursive: true, force: true });
    await cp(source, copy, { recursive: true });
    const { PGlite } = await import('@electric-sql/pglite');
    const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
    const pglite = await PGlite.create(copy, { extensions: { pg_trgm } });
    const db = new Kysely<Database>({
      dialect: new PostgresDialect({ pool: pgliteAsPool(pglite) }),
    });
    try {
      const summary = await loadBackup(target, readSnapshot(db, 'pglite'));
      notify(
        `Carried over ${summary.rows.toLocaleString('en')} rows in ${summary.tables} tables from the earlier embedded database (${source}) into the embedded PostgreSQL. ` +
          `The old folder is left as it was: delete it once the site shows your data.`,
      );
    } finally {
      await db.destroy();
      await pglite.close();
    }
  } finally {
    await rm(copy, { recursive: true, force: true });
    await lock.release();
  }
}

/**
 * What Kysely's PostgresDialect needs of a `pg.Pool`, over PGlite's one connection. Only the
 * import reads through it, one query after another, so connections need no queue.
 */
function pgliteAsPool(pglite: PGlite) {
  const client = {
    async query(text: string, parameters: readonly unknown[]) {
      if (parameters.length === 0) {
        const last = (await pglite.exec(text)).at(-1);
        return {
          rows: last?.rows ?? [],
          rowCount: last?.affectedRows ?? 0,
          command: 'SELECT' as const,
        };
      }
      const result = await pglite.query(text, [...parameters]);
      return { rows: result.rows, rowCount: result.affectedRows ?? 0, command: 'SELECT' as const };
    },
    release() {},
  };
  // Cursor queries (the other overload of query) are never made: Kysely streams none here.
  return { connect: async () => client, end: async () => {} } as unknown as PostgresPool;
}
