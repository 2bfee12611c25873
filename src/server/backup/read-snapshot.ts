import { sql, type Kysely } from 'kysely';
import type { DatabaseKind } from '../db/database';
import { appliedMigrations } from '../db/migrate';
import type { Database } from '../db/schema';
import { appTables, qualifiedName, quoteIdent } from './app-tables';
import {
  BACKUP_FORMAT,
  BACKUP_FORMAT_VERSION,
  BackupFileError,
  TEXT_SETTINGS,
  type BackupHeader,
  type BackupRecord,
} from './backup-format';

/** Rows fetched from the cursor at a time: memory stays flat whatever the table's size. */
export const FETCH_ROWS = 1_000;
/**
 * Rows of a table with binary columns: a stored file's chunks are 256 KB each (twice that as
 * hex), so a thousand of them would hold half a gigabyte.
 */
export const FETCH_BINARY_ROWS = 4;

/**
 * Every table of the app as it is at one instant, as backup records: one repeatable-read,
 * read-only transaction, so rows written meanwhile are either wholly in or wholly out, and
 * (on PostgreSQL) writers never wait for it. Each table is read through a cursor in primary
 * key order. The transaction ends when the records are consumed or the consumer stops.
 */
export async function* readSnapshot(
  db: Kysely<Database>,
  /** Recorded in the header: the kind of database, or "pglite" for an earlier version's. */
  source: DatabaseKind | 'pglite',
): AsyncGenerator<BackupRecord> {
  const trx = await db.startTransaction().execute();
  try {
    await sql`set transaction isolation level repeatable read, read only`.execute(trx);
    for (const setting of TEXT_SETTINGS) await sql.raw(setting).execute(trx);
    // The first query fixes the snapshot; the sequences read after it are at least as far.
    const migrations = await appliedMigrations(trx);
    if (migrations.length === 0) {
      throw new BackupFileError('The database has no tables yet: there is nothing to back up.');
    }
    const tables = await appTables(trx);
    const header: BackupHeader = {
      format: BACKUP_FORMAT,
      version: BACKUP_FORMAT_VERSION,
      created_at: new Date().toISOString(),
      source,
      migrations,
      tables: [],
    };
    for (const table of tables) {
      const count = await sql<{ n: string }>`select count(*)::text as n from ${sql.raw(
        qualifiedName(table),
      )}`.execute(trx);
      const sequences = [];
      for (const { column, sequence } of table.sequences) {
        const state = await sql<{ last_value: string; is_called: boolean }>`
          select last_value::text as last_value, is_called from ${sql.raw(sequence)}`.execute(trx);
        const { last_value, is_called } = state.rows[0]!;
        sequences.push({ column, last_value: is_called ? last_value : null });
      }
      header.tables.push({
        schema: table.schema,
        name: table.name,
        columns: table.columns,
        rows: Number(count.rows[0]!.n),
        sequences,
      });
    }
    yield { kind: 'header', header };

    for (const table of tables) {
      yield { kind: 'table', schema: table.schema, table: table.name };
      const values = table.columns.map((column) => `${quoteIdent(column.name)}::text`).join(', ');
      const order =
        table.primaryKey.length > 0
          ? ` order by ${table.primaryKey.map((name) => quoteIdent(name)).join(', ')}`
          : '';
      await sql
        .raw(
          `declare backup_rows no scroll cursor for select to_json(array[${values}])::text as r from ${qualifiedName(table)}${order}`,
        )
        .execute(trx);
      const fetchRows = table.columns.some((column) => column.type === 'bytea')
        ? FETCH_BINARY_ROWS
        : FETCH_ROWS;
      for (;;) {
        const batch = await sql
          .raw<{ r: string }>(`fetch ${fetchRows} from backup_rows`)
          .execute(trx);
        if (batch.rows.length === 0) break;
        yield { kind: 'rows', rows: batch.rows.map((row) => row.r) };
      }
      await sql.raw('close backup_rows').execute(trx);
    }
    yield { kind: 'end' };
  } finally {
    // Read only: nothing to keep, and a rollback also ends a transaction a failure aborted.
    await trx
      .rollback()
      .execute()
      .catch(() => {});
  }
}
