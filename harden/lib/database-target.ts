import path from 'node:path';
import { openDatabase } from '../../src/server/db/database';
import type { TableName } from '../../src/shared/tables';
import { createScratchDatabase } from '../../bench/lib/postgres';

/** Where a harden run keeps its data: a scratch PostgreSQL database or a data dir of its own. */
export type DatabaseTarget = {
  kind: 'postgres' | 'embedded-postgres';
  /** The app's settings for it (DATABASE_URL or DATA_DIR). */
  env: Record<string, string>;
  dispose(): Promise<void>;
};

export async function createTarget(
  kind: 'postgres' | 'embedded-postgres',
  scratchDir: string,
  name: string,
  postgresAdminUrl?: string,
): Promise<DatabaseTarget> {
  const dataDir = path.join(scratchDir, name);
  if (kind === 'embedded-postgres')
    return { kind, env: { DATA_DIR: dataDir }, dispose: async () => {} };
  if (!postgresAdminUrl) throw new Error('A PostgreSQL target needs TEST_DATABASE_URL.');
  const scratch = await createScratchDatabase(postgresAdminUrl);
  return {
    kind,
    // DATA_DIR still holds the outbox and generated files; the rows go to PostgreSQL.
    env: { DATA_DIR: dataDir, DATABASE_URL: scratch.url },
    dispose: async () => {
      await scratch.drop();
    },
  };
}

export type StoredRow = { email: string; email_sent: boolean; email_sent_at: Date | null };

/**
 * Every row of the given tables as the database holds it, read over one connection. A data
 * dir is one app's at a time: for the embedded server, stop the app first.
 */
export async function readRows(
  target: DatabaseTarget,
  tables: TableName | TableName[],
): Promise<StoredRow[]> {
  const database = await openDatabase(
    target.env.DATABASE_URL
      ? { databaseUrl: target.env.DATABASE_URL, poolSize: 1 }
      : { dataDir: target.env.DATA_DIR! },
  );
  try {
    const rows: StoredRow[] = [];
    for (const table of Array.isArray(tables) ? tables : [tables]) {
      rows.push(
        ...((await database.db
          .selectFrom(table as 'form_submissions')
          .select(['email', 'email_sent', 'email_sent_at'])
          .execute()) as StoredRow[]),
      );
    }
    return rows;
  } finally {
    await database.close();
  }
}
