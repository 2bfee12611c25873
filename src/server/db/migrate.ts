import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from './schema';

/** Beside this module in the sources, and copied beside the bundle by the build. */
const migrationsDir = fileURLToPath(new URL('./migrations/', import.meta.url));

// Any constant shared by all instances: concurrent starts on one PostgreSQL take turns.
export const MIGRATION_LOCK_KEY = 4_271_901_337;

export type Migration = { version: string; sql: string };

export async function loadMigrations(dir = migrationsDir): Promise<Migration[]> {
  const files = (await readdir(dir)).filter((file) => /^\d{4}_[\w-]+\.sql$/.test(file)).sort();
  return Promise.all(
    files.map(async (file) => ({
      version: file.replace(/\.sql$/, ''),
      sql: await readFile(`${dir}/${file}`, 'utf8'),
    })),
  );
}

/**
 * Applies, in order and each in its own transaction, the numbered SQL files not yet recorded
 * in schema_migrations. Returns the versions it applied.
 */
export async function migrate(db: Kysely<Database>, migrations?: Migration[]): Promise<string[]> {
  const pending = migrations ?? (await loadMigrations());
  const applied: string[] = [];
  for (const migration of pending) {
    const ran = await db
      .transaction()
      .execute((trx) => applyMigrationsIn(trx, [migration]).then((done) => done.length > 0));
    if (ran) applied.push(migration.version);
  }
  return applied;
}

/**
 * Applies those of `migrations` not yet recorded inside the caller's transaction, so they
 * commit or roll back with the rest of its work (a restore loads data between two levels).
 */
export async function applyMigrationsIn(
  trx: Transaction<Database>,
  migrations: Migration[],
): Promise<string[]> {
  await sql`select pg_advisory_xact_lock(${MIGRATION_LOCK_KEY})`.execute(trx);
  await sql`create table if not exists schema_migrations (
    version text primary key,
    applied_at timestamptz not null default now()
  )`.execute(trx);
  const applied: string[] = [];
  for (const migration of migrations) {
    const done =
      await sql`select 1 from schema_migrations where version = ${migration.version}`.execute(trx);
    if (done.rows.length > 0) continue;
    await sql.raw(migration.sql).execute(trx);
    await sql`insert into schema_migrations (version) values (${migration.version})`.execute(trx);
    applied.push(migration.version);
  }
  return applied;
}

/** The versions recorded in schema_migrations, oldest first; none before the first migration. */
export async function appliedMigrations(db: Kysely<Database>): Promise<string[]> {
  const exists = await sql<{
    found: boolean;
  }>`select to_regclass('schema_migrations') is not null as found`.execute(db);
  if (!exists.rows[0]?.found) return [];
  const rows = await sql<{
    version: string;
  }>`select version from schema_migrations order by version`.execute(db);
  return rows.rows.map((row) => row.version);
}
