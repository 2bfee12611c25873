import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { sql, type Kysely } from 'kysely';
import type { Database } from './schema';

/** Beside this module in the sources, and copied beside the bundle by the build. */
const migrationsDir = fileURLToPath(new URL('./migrations/', import.meta.url));

// Any constant shared by all instances: concurrent starts on one PostgreSQL take turns.
const MIGRATION_LOCK_KEY = 4_271_901_337;

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
    const ran = await db.transaction().execute(async (trx) => {
      await sql`select pg_advisory_xact_lock(${MIGRATION_LOCK_KEY})`.execute(trx);
      await sql`create table if not exists schema_migrations (
        version text primary key,
        applied_at timestamptz not null default now()
      )`.execute(trx);
      const done =
        await sql`select 1 from schema_migrations where version = ${migration.version}`.execute(
          trx,
        );
      if (done.rows.length > 0) return false;
      await sql.raw(migration.sql).execute(trx);
      await sql`insert into schema_migrations (version) values (${migration.version})`.execute(trx);
      return true;
    });
    if (ran) applied.push(migration.version);
  }
  return applied;
}
