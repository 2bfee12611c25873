import { PGlite } from '@electric-sql/pglite';
import { Kysely } from 'kysely';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { pgliteExtensions } from '../../src/server/db/database';
import { migrate } from '../../src/server/db/migrate';
import { PGliteDialect } from '../../src/server/db/pglite-driver';
import type { Database } from '../../src/server/db/schema';
import { withAdminClient } from '../support/postgres-admin';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplateFile: string;
    postgresTemplate: string | null;
  }
}

/**
 * Migrates each database once per run; every test file then starts from a copy: a PGlite
 * loaded from this dump, or a PostgreSQL database created from this template.
 */
export default async function setup(project: TestProject) {
  const tempDir = await mkdtemp(path.join(os.tmpdir(), 'soul-reset-test-'));
  const pglite = await PGlite.create({ extensions: pgliteExtensions });
  await migrate(new Kysely<Database>({ dialect: new PGliteDialect(pglite) }));
  const dump = await pglite.dumpDataDir('none');
  await pglite.close();
  const templateFile = path.join(tempDir, 'pglite-template.tar');
  await writeFile(templateFile, Buffer.from(await dump.arrayBuffer()));
  project.provide('pgliteTemplateFile', templateFile);

  const postgresTemplate = process.env.TEST_DATABASE_URL
    ? await createPostgresTemplate(process.env.TEST_DATABASE_URL)
    : null;
  project.provide('postgresTemplate', postgresTemplate);

  return async () => {
    await rm(tempDir, { recursive: true, force: true });
    if (postgresTemplate && process.env.TEST_DATABASE_URL) {
      await withAdminClient(process.env.TEST_DATABASE_URL, (client) =>
        client.query(`drop database if exists "${postgresTemplate}" with (force)`),
      );
    }
  };
}

async function createPostgresTemplate(adminUrl: string): Promise<string> {
  const name = `soul_reset_tpl_${process.pid}_${Date.now()}`;
  await withAdminClient(adminUrl, (client) => client.query(`create database "${name}"`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const { openDatabase } = await import('../../src/server/db/database');
  const database = await openDatabase({ databaseUrl: url.toString(), poolSize: 1 });
  try {
    await migrate(database.db);
  } finally {
    await database.close();
  }
  return name;
}
