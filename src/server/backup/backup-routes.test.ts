import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { signIn } from '../../../tests/support/sign-in';
import { startSmtpSink, type SmtpSink } from '../../../tests/support/smtp-sink';
import { buildTestApp } from '../../../tests/support/test-app';
import { testConfig } from '../../../tests/support/test-config';
import {
  createEmptyTestDatabase,
  describeEachDatabase,
} from '../../../tests/support/test-database';
import { backupPath } from '../../shared/admin/backup-api';
import { loadBackup } from './load-backup';
import { readBackupFile } from './read-backup-file';

const ADMIN = 'owner@example.com';
const VISITOR = 'visitor@example.com';

describeEachDatabase('GET /api/admin/backup', (use, kind) => {
  let sink: SmtpSink;
  let app: FastifyInstance;
  let adminCookie: string;
  let visitorCookie: string;
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'soul-reset-backup-route-'));
    sink = await startSmtpSink();
    app = await buildTestApp(use(), {
      config: await testConfig({ SMTP_URL: sink.url, ADMIN_EMAILS: ADMIN }),
    });
    adminCookie = await signIn(app, sink, ADMIN);
    visitorCookie = await signIn(app, sink, VISITOR);
    await use()
      .db.insertInto('terms_of_service_feedback')
      .values({ name: 'Cleo', email: 'cleo@example.com', message: 'Fair terms 👍' })
      .execute();
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await sink?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('answers 401 without a session and 403 to a signed-in visitor', async () => {
    const anonymous = await app.inject({ method: 'GET', url: backupPath });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.headers['content-disposition']).toBeUndefined();
    const visitor = await app.inject({
      method: 'GET',
      url: backupPath,
      headers: { cookie: visitorCookie },
    });
    expect(visitor.statusCode).toBe(403);
  });

  it('sends the whole database as a dated gzip file that restores', async () => {
    const response = await app.inject({
      method: 'GET',
      url: backupPath,
      headers: { cookie: adminCookie },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/gzip');
    expect(response.headers['cache-control']).toBe('no-store');
    const today = new Date().toISOString().slice(0, 10);
    expect(response.headers['content-disposition']).toMatch(
      new RegExp(
        `^attachment; filename="soul-reset-backup-${today}T\\d\\d-\\d\\d-\\d\\dZ\\.jsonl\\.gz"$`,
      ),
    );
    expect(Number(response.headers['content-length'])).toBe(response.rawPayload.length);

    const [first] = gunzipSync(response.rawPayload).toString('utf8').split('\n');
    const header = JSON.parse(first!);
    expect(header).toMatchObject({ format: 'soul-reset-backup', version: 1, source: kind });
    const users = header.tables.find((table: { name: string }) => table.name === 'auth_user');
    // The two accounts that signed in above.
    expect(users.rows).toBe(2);

    const file = path.join(dir, `${kind}.jsonl.gz`);
    await writeFile(file, response.rawPayload);
    const target = await createEmptyTestDatabase(kind);
    try {
      await loadBackup(target.db, readBackupFile(file));
      const rows = await target.db
        .selectFrom('terms_of_service_feedback')
        .select(['name', 'message'])
        .execute();
      expect(rows).toEqual([{ name: 'Cleo', message: 'Fair terms 👍' }]);
      const emails = await sql<{
        email: string;
      }>`select email from auth_user order by email`.execute(target.db);
      expect(emails.rows.map((row) => row.email)).toEqual([ADMIN, VISITOR]);
    } finally {
      await target.dispose();
    }
  }, 60_000);
});
