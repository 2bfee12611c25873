import { rm } from 'node:fs/promises';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from '../../src/server/db/embedded-postgres';
import { withAdminClient } from '../support/postgres-admin';
import { makeTempDir } from '../support/temp-dir';

/** A server the tests create their databases on, and the migrated template they copy. */
export type TestServer = { adminUrl: string; template: string };

declare module 'vitest' {
  export interface ProvidedContext {
    embeddedServer: TestServer;
    postgresServer: TestServer | null;
  }
}

/**
 * One embedded PostgreSQL for the whole run (as `npm start` runs it, in a folder of its own),
 * and the PostgreSQL server at TEST_DATABASE_URL when set. Each is migrated once into a
 * template; every test file then gets a database of its own created from it.
 */
export default async function setup(project: TestProject) {
  const dataDir = await makeTempDir('soul-reset-test-');
  const embedded = await startEmbeddedPostgres(dataDir);
  const cleanups: (() => Promise<void>)[] = [
    () => rm(dataDir, { recursive: true, force: true }),
    () => embedded.stop(),
  ];
  try {
    const adminUrl = embedded.url();
    project.provide('embeddedServer', { adminUrl, template: await createTemplate(adminUrl) });
    const postgresUrl = process.env.TEST_DATABASE_URL;
    if (postgresUrl) {
      const template = await createTemplate(postgresUrl);
      cleanups.push(() =>
        withAdminClient(postgresUrl, (client) =>
          client.query(`drop database if exists "${template}" with (force)`),
        ).then(() => {}),
      );
      project.provide('postgresServer', { adminUrl: postgresUrl, template });
    } else {
      project.provide('postgresServer', null);
    }
  } catch (error) {
    await teardown(cleanups);
    throw error;
  }
  return () => teardown(cleanups);
}

async function teardown(cleanups: (() => Promise<void>)[]) {
  while (cleanups.length > 0) await cleanups.pop()!();
}

async function createTemplate(adminUrl: string): Promise<string> {
  const name = `soul_reset_tpl_${process.pid}_${Date.now()}`;
  await withAdminClient(adminUrl, (client) => client.query(`create database "${name}"`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const { openDatabase } = await import('../../src/server/db/database');
  const { migrate } = await import('../../src/server/db/migrate');
  const database = await openDatabase({ databaseUrl: url.toString(), poolSize: 1 });
  try {
    await migrate(database.db);
  } finally {
    await database.close();
  }
  return name;
}
