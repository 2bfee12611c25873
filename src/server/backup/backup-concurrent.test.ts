import { sql, type Kysely } from 'kysely';
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn } from '../../../tests/support/sign-in';
import { startSmtpSink, type SmtpSink } from '../../../tests/support/smtp-sink';
import { testConfig } from '../../../tests/support/test-config';
import {
  createTestDatabase,
  testDatabaseKinds,
  type TestDatabase,
} from '../../../tests/support/test-database';
import { backupPath } from '../../shared/admin/backup-api';
import { openDatabase } from '../db/database';
import type { Database } from '../db/schema';
import { startServer, type RunningServer } from '../server';
import { appTables, qualifiedName } from './app-tables';
import { loadBackup } from './load-backup';
import { readBackupFile } from './read-backup-file';
import { makeTempDir } from '../../../tests/support/temp-dir';

const ADMIN = 'owner@example.com';

async function tableCounts(db: Kysely<Database>): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of await appTables(db)) {
    const result = await sql<{ n: string }>`select count(*)::text as n from ${sql.raw(
      qualifiedName(table),
    )}`.execute(db);
    counts[table.name] = Number(result.rows[0]!.n);
  }
  return counts;
}

for (const kind of testDatabaseKinds) {
  describe(`a backup taken while visitors submit [${kind}]`, () => {
    let dir: string;
    let sink: SmtpSink;
    let server: RunningServer;
    let postgres: TestDatabase | undefined;

    beforeAll(async () => {
      dir = await makeTempDir('soul-reset-backup-concurrent-');
      sink = await startSmtpSink();
      postgres = kind === 'postgres' ? await createTestDatabase('postgres') : undefined;
      const config = await testConfig({
        PORT: '0',
        SMTP_URL: sink.url,
        ADMIN_EMAILS: ADMIN,
        FORM_RATE_LIMIT: '100000',
        ...(postgres ? { DATABASE_URL: postgres.url! } : {}),
      });
      server = await startServer(config);
    }, 120_000);
    afterAll(async () => {
      await server?.close();
      await postgres?.dispose();
      await sink?.close();
      await rm(dir, { recursive: true, force: true });
    });

    it('restores into a fresh data directory with each table between its counts before and after', async () => {
      const cookie = await signIn(server.app, sink, ADMIN);
      const submitted: number[] = [];
      const failures: string[] = [];
      let stop = false;
      const visitor = async (n: number) => {
        for (let i = 0; !stop; i++) {
          const response = await fetch(`${server.url}/api/forms/refund`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({
              name: `Visitor ${n}-${i}`,
              email: `visitor${n}-${i}@example.com`,
              message: `Submission ${i}\nfrom visitor ${n} ✓`,
            }),
          });
          if (response.ok) submitted.push(n);
          else failures.push(`${response.status} ${await response.text()}`);
        }
      };
      const waitFor = async (count: number) => {
        while (submitted.length < count) await new Promise((resolve) => setTimeout(resolve, 20));
      };

      const visitors = [0, 1, 2, 3].map(visitor);
      await waitFor(10);
      const before = await tableCounts(server.database.db);
      const response = await fetch(`${server.url}${backupPath}`, { headers: { cookie } });
      expect(response.status).toBe(200);
      const file = path.join(dir, `${kind}.jsonl.gz`);
      await writeFile(file, Buffer.from(await response.arrayBuffer()));
      const atBackup = submitted.length;
      await waitFor(atBackup + 10);
      stop = true;
      await Promise.all(visitors);
      const after = await tableCounts(server.database.db);
      expect(failures).toEqual([]);
      expect(after.refund_inquiries).toBeGreaterThan(before.refund_inquiries!);

      const restored = await openDatabase({ dataDir: path.join(dir, `${kind}-restored`) });
      try {
        await loadBackup(restored.db, readBackupFile(file));
        const counts = await tableCounts(restored.db);
        expect(Object.keys(counts).sort()).toEqual(Object.keys(before).sort());
        for (const [table, count] of Object.entries(counts)) {
          expect(count, table).toBeGreaterThanOrEqual(before[table]!);
          expect(count, table).toBeLessThanOrEqual(after[table]!);
        }
        // One instant for every table: the counters a trigger keeps match the rows exactly.
        const counted = await sql<{ n: number }>`
          select coalesce(sum(n), 0)::int as n from table_row_counts
          where table_name = 'refund_inquiries'`.execute(restored.db);
        expect(counted.rows[0]!.n).toBe(counts.refund_inquiries);
      } finally {
        await restored.close();
      }
    }, 180_000);
  });
}
