import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn } from '../../../tests/support/sign-in';
import { startSmtpSink, type SmtpSink } from '../../../tests/support/smtp-sink';
import { testConfig } from '../../../tests/support/test-config';
import { createEmptyTestDatabase, type TestDatabase } from '../../../tests/support/test-database';
import { tableRowsPath } from '../../shared/admin/table-api';
import { startServer } from '../server';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const ADMIN = 'owner@example.com';

function submit(url: string, name: string) {
  return fetch(`${url}/api/forms/refund`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      name,
      email: `${name.toLowerCase()}@example.com`,
      message: `From ${name}`,
    }),
  });
}

describe.skipIf(!process.env.TEST_DATABASE_URL)(
  'npm run db:copy from the embedded PostgreSQL to a PostgreSQL server',
  () => {
    let sink: SmtpSink;
    let target: TestDatabase;
    let dataDir: string;

    beforeAll(async () => {
      sink = await startSmtpSink();
      target = await createEmptyTestDatabase('postgres');
      const config = await testConfig({ PORT: '0', SMTP_URL: sink.url, ADMIN_EMAILS: ADMIN });
      dataDir = config.dataDir;
      const site = await startServer(config);
      try {
        await signIn(site.app, sink, ADMIN);
        for (const name of ['Ada', 'Bo', 'Cleo'])
          expect((await submit(site.url, name)).status).toBe(200);
        // The last id handed out was deleted: the copy must not hand it out again.
        await site.database.db.deleteFrom('refund_inquiries').where('name', '=', 'Cleo').execute();
      } finally {
        await site.close();
      }
    }, 120_000);
    afterAll(async () => {
      await target?.dispose();
      await sink?.close();
    });

    it('copies every record, and a server on PostgreSQL serves them and takes new submissions', async () => {
      const outcome = await new Promise<{ code: number; stdout: string; stderr: string }>(
        (resolve) =>
          execFile(
            process.execPath,
            [
              '--import',
              'tsx',
              path.join(root, 'src/server/backup/backup-cli.ts'),
              'copy',
              '--to',
              target.url!,
            ],
            {
              cwd: root,
              env: { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: dataDir },
            },
            (error, stdout, stderr) =>
              resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
          ),
      );
      expect(outcome.code, outcome.stderr).toBe(0);
      expect(outcome.stdout).toMatch(
        /^Copied \d+ tables, \d+ rows from embedded PostgreSQL 17 in .* to PostgreSQL at .*; row counts checked\./,
      );

      const config = await testConfig({
        PORT: '0',
        SMTP_URL: sink.url,
        ADMIN_EMAILS: ADMIN,
        DATABASE_URL: target.url!,
      });
      const server = await startServer(config);
      try {
        const cookie = await signIn(server.app, sink, ADMIN);
        const list = async () => {
          const response = await fetch(`${server.url}${tableRowsPath('refund_inquiries')}`, {
            headers: { cookie },
          });
          expect(response.status).toBe(200);
          return (await response.json()) as { count: number; rows: { id: number; name: string }[] };
        };
        const copied = await list();
        expect(copied.count).toBe(2);
        expect(copied.rows.map((row) => [row.id, row.name])).toEqual([
          [2, 'Bo'],
          [1, 'Ada'],
        ]);

        expect((await submit(server.url, 'Dee')).status).toBe(200);
        const grown = await list();
        expect(grown.count).toBe(3);
        // Ids continue after the deleted 3, as they would have on the embedded database.
        expect(grown.rows[0]).toMatchObject({ id: 4, name: 'Dee' });
      } finally {
        await server.close();
      }
    }, 180_000);
  },
);
