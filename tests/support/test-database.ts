import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, inject } from 'vitest';
import { openDatabase, type AppDatabase, type DatabaseKind } from '../../src/server/db/database';
import type { TestServer } from '../setup/global-setup';
import { withAdminClient } from './postgres-admin';

/** The embedded PostgreSQL always; the PostgreSQL server too when TEST_DATABASE_URL is set. */
export const testDatabaseKinds: DatabaseKind[] = inject('postgresServer')
  ? ['embedded-postgres', 'postgres']
  : ['embedded-postgres'];

export type TestDatabase = AppDatabase & {
  /** For tests that need a connection string (a second app instance, a raw client). */
  url: string;
  dispose(): Promise<void>;
};

function serverOf(kind: DatabaseKind): TestServer {
  const server = kind === 'postgres' ? inject('postgresServer') : inject('embeddedServer');
  if (!server) throw new Error('PostgreSQL tests need TEST_DATABASE_URL.');
  return server;
}

/** A fresh, migrated database of its own, copied from the run's template. */
export function createTestDatabase(kind: DatabaseKind): Promise<TestDatabase> {
  const server = serverOf(kind);
  return createDatabase(kind, server.adminUrl, 'test', server.template);
}

/** A new database with no tables at all (restores and copies need one). */
export function createEmptyTestDatabase(kind: DatabaseKind): Promise<TestDatabase> {
  return createDatabase(kind, serverOf(kind).adminUrl, 'empty', 'template0');
}

async function createDatabase(
  kind: DatabaseKind,
  adminUrl: string,
  purpose: string,
  template: string,
): Promise<TestDatabase> {
  const name = `soul_reset_${purpose}_${randomBytes(6).toString('hex')}`;
  await withAdminClient(adminUrl, (client) =>
    client.query(`create database "${name}" template "${template}"`),
  );
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString() });
  return {
    ...database,
    kind,
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
