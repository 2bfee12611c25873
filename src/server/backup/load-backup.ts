import { CompiledQuery, sql, type Kysely, type Transaction } from 'kysely';
import {
  applyMigrationsIn,
  loadMigrations,
  MIGRATION_LOCK_KEY,
  type Migration,
} from '../db/migrate';
import type { Database } from '../db/schema';
import { appTables, qualifiedName, quoteIdent, type AppTable } from './app-tables';
import {
  BackupFileError,
  RestoreRefusedError,
  TEXT_SETTINGS,
  type BackupHeader,
  type BackupRecord,
} from './backup-format';
import type { BackupSummary } from './write-backup-file';

/**
 * Fills an empty database with a backup's records, all in one transaction: on any failure
 * (a damaged file, a refused value, a lost connection) the database is left as it was.
 *
 * The schema is brought to the backup's migration level first, the rows are loaded as they
 * were (user triggers paused, so counters derived from rows are copied, not counted twice),
 * sequences continue after the highest value handed out, row counts are checked, and then
 * the migrations the backup predates run over the loaded data, as they would have on the site.
 */
export async function loadBackup(
  db: Kysely<Database>,
  records: AsyncIterable<BackupRecord>,
  options: { migrations?: Migration[] } = {},
): Promise<BackupSummary> {
  const migrations = options.migrations ?? (await loadMigrations());
  const iterator = records[Symbol.asyncIterator]();
  try {
    const first = await iterator.next();
    if (first.done || first.value.kind !== 'header') {
      throw new BackupFileError('The backup has no header.');
    }
    const header = first.value.header;
    const known = new Set(migrations.map((migration) => migration.version));
    const unknown = header.migrations.filter((version) => !known.has(version));
    if (unknown.length > 0) {
      throw new BackupFileError(
        `This backup comes from a newer version of the site (migration ${unknown[0]} is unknown here): update the site first.`,
      );
    }
    return await db.transaction().execute(async (trx) => {
      for (const setting of TEXT_SETTINGS) await sql.raw(setting).execute(trx);
      // A server starting on this database meanwhile waits, then finds it migrated.
      await sql`select pg_advisory_xact_lock(${MIGRATION_LOCK_KEY})`.execute(trx);
      const atBackupLevel = migrations.filter((m) => header.migrations.includes(m.version));
      const applied = await appliedVersions(trx);
      if (applied.some((version) => !header.migrations.includes(version))) {
        throw new RestoreRefusedError(
          'The target database is already set up by a newer version than the backup; restore into a new, empty database.',
        );
      }
      await refuseUnlessEmpty(trx);
      await applyMigrationsIn(trx, atBackupLevel);
      const summary = await loadRows(trx, header, iterator);
      await applyMigrationsIn(trx, migrations);
      return summary;
    });
  } finally {
    await iterator.return?.();
  }
}

async function appliedVersions(trx: Transaction<Database>): Promise<string[]> {
  const exists = await sql<{ found: boolean }>`
    select to_regclass('schema_migrations') is not null as found`.execute(trx);
  if (!exists.rows[0]?.found) return [];
  const rows = await sql<{ version: string }>`select version from schema_migrations`.execute(trx);
  return rows.rows.map((row) => row.version);
}

async function refuseUnlessEmpty(trx: Transaction<Database>) {
  for (const table of await appTables(trx)) {
    const found = await sql`select 1 from ${sql.raw(qualifiedName(table))} limit 1`.execute(trx);
    if (found.rows.length > 0) {
      throw new RestoreRefusedError(
        `The target database is not empty (${table.name} has rows): restore only into a new, empty database.`,
      );
    }
  }
}

async function loadRows(
  trx: Transaction<Database>,
  header: BackupHeader,
  records: AsyncIterator<BackupRecord>,
): Promise<BackupSummary> {
  const targets = new Map((await appTables(trx)).map((table) => [qualifiedName(table), table]));
  const plan = header.tables.map((table) => {
    const target = targets.get(qualifiedName(table));
    if (!target) {
      throw new RestoreRefusedError(
        `The backup's table ${table.name} does not exist in this database.`,
      );
    }
    const types = new Map(target.columns.map((column) => [column.name, column.type]));
    for (const column of table.columns) {
      if (!types.has(column.name)) {
        throw new RestoreRefusedError(
          `The backup's column ${table.name}.${column.name} does not exist in this database.`,
        );
      }
    }
    // Columns the backup lacks take their defaults.
    const values = table.columns
      .map((column, index) => `(r->>${index})::${types.get(column.name)}`)
      .join(', ');
    const columns = table.columns.map((column) => quoteIdent(column.name)).join(', ');
    return {
      table,
      target,
      insert: `insert into ${qualifiedName(target)} (${columns}) overriding system value select ${values} from jsonb_array_elements($1::text::jsonb) as r`,
    };
  });

  // Tables load parents first, so foreign keys hold after each statement; a deferred check
  // left pending would keep the triggers below from being switched back on.
  await sql`set constraints all immediate`.execute(trx);
  for (const { target } of plan) {
    await sql.raw(`alter table ${qualifiedName(target)} disable trigger user`).execute(trx);
  }
  // The database was empty: any row now was put there by a migration, and the backup holds
  // that table's rows as they were. Children first, for foreign keys.
  for (const { target } of [...plan].reverse()) {
    await sql.raw(`delete from ${qualifiedName(target)}`).execute(trx);
  }
  let total = 0;
  let current: (typeof plan)[number] | undefined;
  let next = 0;
  for (let record = await records.next(); ; record = await records.next()) {
    if (record.done) throw new BackupFileError('The backup ends too early.');
    const value = record.value;
    if (value.kind === 'end') break;
    if (value.kind === 'table') {
      current = plan[next++];
      if (!current || current.table.name !== value.table || current.table.schema !== value.schema) {
        throw new BackupFileError(
          `The backup's rows of ${value.table} are not where its header says.`,
        );
      }
    } else if (value.kind === 'rows') {
      if (!current) throw new BackupFileError('The backup has rows before any table.');
      await trx.executeQuery(CompiledQuery.raw(current.insert, [`[${value.rows.join(',')}]`]));
      total += value.rows.length;
    } else {
      throw new BackupFileError('The backup has a second header.');
    }
  }
  for (const { target } of plan) {
    await sql.raw(`alter table ${qualifiedName(target)} enable trigger user`).execute(trx);
  }

  for (const { table, target } of plan) {
    const count = await sql<{ n: string }>`select count(*)::text as n from ${sql.raw(
      qualifiedName(target),
    )}`.execute(trx);
    if (Number(count.rows[0]!.n) !== table.rows) {
      throw new BackupFileError(
        `${table.name} has ${count.rows[0]!.n} rows after the restore where the backup has ${table.rows}.`,
      );
    }
    await carrySequences(trx, table, target);
  }
  return { tables: plan.length, rows: total };
}

/** New rows must get ids after every id the backup's database handed out, rows or not. */
async function carrySequences(
  trx: Transaction<Database>,
  table: BackupHeader['tables'][number],
  target: AppTable,
) {
  for (const { column, sequence } of target.sequences) {
    const saved = table.sequences.find((entry) => entry.column === column)?.last_value ?? null;
    const highest = await sql<{
      max: string | null;
    }>`select max(${sql.raw(quoteIdent(column))})::text as max from ${sql.raw(
      qualifiedName(target),
    )}`.execute(trx);
    const values = [saved, highest.rows[0]!.max].filter((value) => value !== null).map(BigInt);
    if (values.length === 0) continue;
    const last = values.reduce((a, b) => (a > b ? a : b));
    await sql`select setval(${sequence}::regclass, ${last.toString()}::bigint, true)`.execute(trx);
  }
}
