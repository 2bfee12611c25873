import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, inject } from 'vitest';
import { openDatabase, type AppDatabase, type DatabaseKind } from '../../src/server/db/database';
import { withAdminClient } from './postgres-admin';

/** PGlite always; PostgreSQL too when TEST_DATABASE_URL is set (CI sets it). */
export const testDatabaseKinds: DatabaseKind[] = inject('postgresTemplate')
  ? ['pglite', 'postgres']
  : ['pglite'];

export type TestDatabase = AppDatabase & {
  /** For tests that need a connection string (a second app instance, a raw client). */
  url: string | null;
  dispose(): Promise<void>;
};

/** A fresh, migrated database of its own, copied from the run's template. */
export async function createTestDatabase(kind: DatabaseKind): Promise<TestDatabase> {
  if (kind === 'pglite') {
    const template = new Blob([await readFile(inject('pgliteTemplateFile'))]);
    const database = await openDatabase({ inMemory: true, loadDataDir: template });
    return { ...database, url: null, dispose: () => database.close() };
  }
  const adminUrl = process.env.TEST_DATABASE_URL;
  const template = inject('postgresTemplate');
  if (!adminUrl || !template) throw new Error('PostgreSQL tests need TEST_DATABASE_URL.');
  const name = `soul_reset_test_${randomBytes(6).toString('hex')}`;
  await withAdminClient(adminUrl, (client) =>
    client.query(`create database "${name}" template "${template}"`),
  );
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString() });
  return {
    ...database,
    url: url.toString(),
    dispose: async () => {
      await database.close();
      await withAdminClient(adminUrl, (client) =>
        client.query(`drop database if exists "${name}" with (force)`),
      );
    },
  };
}

/**
 * Runs the suite once per database kind, each with a database of its own for the suite.
 * `use()` returns that database inside tests and hooks.
 */
export function describeEachDatabase(
  title: string,
  suite: (use: () => TestDatabase, kind: DatabaseKind) => void,
) {
  for (const kind of testDatabaseKinds) {
    describe(`${title} [${kind}]`, () => {
      let database: TestDatabase | undefined;
      beforeAll(async () => {
        database = await createTestDatabase(kind);
      }, 60_000);
      afterAll(async () => {
        await database?.dispose();
      });
      suite(() => {
        if (!database) throw new Error('The test database is not ready yet.');
        return database;
      }, kind);
    });
  }
}

/**
 * A new database with no tables at all (restores and copies need one): an in-memory PGlite,
 * or a PostgreSQL database created from template0.
 */
export async function createEmptyTestDatabase(kind: DatabaseKind): Promise<TestDatabase> {
  if (kind === 'pglite') {
    const database = await openDatabase({ inMemory: true });
    return { ...database, url: null, dispose: () => database.close() };
  }
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error('PostgreSQL tests need TEST_DATABASE_URL.');
  const name = `soul_reset_empty_${randomBytes(6).toString('hex')}`;
  await withAdminClient(adminUrl, (client) =>
    client.query(`create database "${name}" template template0`),
  );
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString() });
  return {
    ...database,
    url: url.toString(),
    dispose: async () => {
      await database.close();
      await withAdminClient(adminUrl, (client) =>
        client.query(`drop database if exists "${name}" with (force)`),
      );
    },
  };
}
