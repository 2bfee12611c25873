import type { FastifyInstance, InjectOptions } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { signIn } from '../../../../tests/support/sign-in';
import { startSmtpSink, type SmtpSink } from '../../../../tests/support/smtp-sink';
import { buildTestApp } from '../../../../tests/support/test-app';
import { testConfig } from '../../../../tests/support/test-config';
import { describeEachDatabase } from '../../../../tests/support/test-database';
import { auditPath, auditRestorePath, type AuditEntry } from '../../../shared/admin/audit-api';
import { tableBulkDeletePath, tableRowPath, tableRowsPath } from '../../../shared/admin/table-api';

const ADMIN = 'owner@example.com';
const TABLE = 'refund_inquiries';

describeEachDatabase('bulk delete, the activity log and restore', (use) => {
  let sink: SmtpSink;
  let app: FastifyInstance;
  let cookie: string;

  beforeAll(async () => {
    sink = await startSmtpSink();
    app = await buildTestApp(use(), {
      config: await testConfig({ SMTP_URL: sink.url, ADMIN_EMAILS: ADMIN }),
    });
    cookie = await signIn(app, sink, ADMIN);
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await sink?.close();
  });

  function admin(method: InjectOptions['method'], url: string, payload?: InjectOptions['payload']) {
    return app.inject({
      method,
      url,
      headers: { cookie, origin: app.config.publicUrl },
      ...(payload === undefined ? {} : { payload }),
    });
  }

  async function latest(): Promise<AuditEntry> {
    const response = await admin('GET', auditPath());
    expect(response.statusCode, response.body).toBe(200);
    return response.json().rows[0];
  }

  const storedIds = async () =>
    (
      await sql<{ id: number }>`select id from refund_inquiries order by id`.execute(use().db)
    ).rows.map((row) => Number(row.id));

  it('records a create, an update and a delete with the admin, the time and the whole rows', async () => {
    const started = Date.now();
    const created = await admin('POST', tableRowsPath(TABLE), {
      name: 'Ann',
      email: 'ann@example.com',
    });
    expect(created.statusCode).toBe(201);
    const id = created.json().row.id as number;
    const create = await latest();
    expect(create).toMatchObject({
      adminEmail: ADMIN,
      action: 'create',
      tableName: TABLE,
      rowIds: [id],
      before: null,
      restoredAt: null,
    });
    expect(create.after).toEqual([
      expect.objectContaining({ id, name: 'Ann', email: 'ann@example.com', email_sent: false }),
    ]);
    expect(Date.parse(create.createdAt)).toBeGreaterThanOrEqual(started - 5_000);

    expect(
      (await admin('PUT', tableRowPath(TABLE, id), { name: 'Anna', email: 'ann@example.com' }))
        .statusCode,
    ).toBe(200);
    const update = await latest();
    expect(update).toMatchObject({ action: 'update', rowIds: [id] });
    expect(update.before![0]).toMatchObject({ name: 'Ann' });
    expect(update.after![0]).toMatchObject({ name: 'Anna' });

    expect((await admin('DELETE', tableRowPath(TABLE, id))).statusCode).toBe(204);
    const deleted = await latest();
    expect(deleted).toMatchObject({ action: 'delete', rowIds: [id], after: null });
    expect(deleted.before![0]).toMatchObject({ id, name: 'Anna' });
    // A 404 records nothing.
    expect((await admin('DELETE', tableRowPath(TABLE, id))).statusCode).toBe(404);
    expect((await latest()).id).toBe(deleted.id);
  });

  it('bulk deletes the rows it is given, answers how many existed, and restores them with their ids', async () => {
    const { db } = use();
    await sql`insert into refund_inquiries (name, email, message, email_sent, email_sent_at, created_at)
      select 'Spam ' || g, 'spam' || g || '@example.com', 'Buy now', true,
        timestamptz '2025-05-01T10:00:00.123456Z', timestamptz '2025-04-01T08:00:00.654321Z'
      from generate_series(1, 5) as g`.execute(db);
    const before = await sql<Record<string, unknown>>`
      select *, created_at::text as created_text from refund_inquiries order by id`.execute(db);
    const ids = (await storedIds()).slice(0, 3);
    const countBefore = (await admin('GET', tableRowsPath(TABLE))).json().count as number;

    const response = await admin('POST', tableBulkDeletePath(TABLE), {
      ids: [...ids, ids[0], 999999],
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ deleted: 3 });
    expect((await admin('GET', tableRowsPath(TABLE))).json().count).toBe(countBefore - 3);
    const entry = await latest();
    expect(entry).toMatchObject({ action: 'bulk_delete', tableName: TABLE, rowIds: ids });
    expect(entry.before!.map((row) => row.id)).toEqual(ids);

    const restored = await admin('POST', auditRestorePath(entry.id), {});
    expect(restored.statusCode, restored.body).toBe(200);
    expect(restored.json()).toMatchObject({
      restored: 3,
      entry: { id: entry.id, restoredBy: ADMIN },
    });
    const after = await sql<Record<string, unknown>>`
      select *, created_at::text as created_text from refund_inquiries order by id`.execute(db);
    // Every column back as it was, microseconds included, and the counters agree.
    expect(after.rows).toEqual(before.rows);
    expect((await admin('GET', tableRowsPath(TABLE))).json().count).toBe(countBefore);
    expect(await latest()).toMatchObject({ action: 'restore', rowIds: ids, adminEmail: ADMIN });

    const again = await admin('POST', auditRestorePath(entry.id), {});
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(`Activity entry ${entry.id} was restored already.`);
  });

  it('refuses to restore over a taken id with 409 and changes nothing', async () => {
    const { db } = use();
    const [first] = await storedIds();
    expect((await admin('DELETE', tableRowPath(TABLE, first!))).statusCode).toBe(204);
    const entry = await latest();
    await sql`insert into refund_inquiries (id, name, email) overriding system value
      values (${first}, 'Someone else', 'else@example.com')`.execute(db);
    const refused = await admin('POST', auditRestorePath(entry.id), {});
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(`Cannot restore: id ${first} of ${TABLE} is taken.`);
    expect((await latest()).id).toBe(entry.id);
    const create = (await admin('GET', auditPath()))
      .json()
      .rows.find((row: AuditEntry) => row.action === 'update');
    const notDelete = await admin('POST', auditRestorePath(create.id), {});
    expect(notDelete.statusCode).toBe(409);
    expect(notDelete.json().message).toBe(
      `Only a delete can be restored; activity entry ${create.id} is a update.`,
    );
    expect((await admin('POST', auditRestorePath(999999), {})).statusCode).toBe(404);
  });

  it('refuses a bulk delete body that is not a list of ids, and bad pages and entry ids', async () => {
    const refusals: [unknown, string][] = [
      [{ ids: [] }, 'Choose at least one row to delete.'],
      [{ ids: [1, 'x'] }, 'The ids must be positive whole numbers.'],
      [{ ids: [0] }, 'The ids must be positive whole numbers.'],
      [{ ids: [1.5] }, 'The ids must be positive whole numbers.'],
      [
        { ids: Array.from({ length: 1001 }, (_, i) => i + 1) },
        'Delete at most 1000 rows at a time.',
      ],
      [{ ids: [1], all: true }, 'The body must be { "ids": [ … ] } and nothing else.'],
      [[1, 2], 'The body must be { "ids": [ … ] } and nothing else.'],
    ];
    for (const [body, message] of refusals) {
      const response = await admin('POST', tableBulkDeletePath(TABLE), body as object);
      expect(response.statusCode, JSON.stringify(body).slice(0, 50)).toBe(400);
      expect(response.json().message).toBe(message);
    }
    expect((await admin('POST', tableBulkDeletePath('auth_user'), { ids: [1] })).statusCode).toBe(
      404,
    );
    expect((await admin('GET', `${auditPath()}?page=x`)).statusCode).toBe(400);
    expect((await admin('POST', auditRestorePath(0), {})).statusCode).toBe(400);
    expect((await admin('POST', '/api/admin/audit/abc/restore', {})).statusCode).toBe(400);
  });

  it('pages the log newest first with its count, and keeps it from anyone but the admin', async () => {
    const page = (await admin('GET', `${auditPath()}?page=0`)).json();
    // Create, update, delete; bulk delete, restore; the delete over a taken id.
    expect(page.count).toBe(6);
    expect(page.pageSize).toBe(20);
    const ids = page.rows.map((row: AuditEntry) => row.id);
    expect(ids).toEqual([...ids].sort((a: number, b: number) => b - a));
    const anonymous = await app.inject({ method: 'GET', url: auditPath() });
    expect(anonymous.statusCode).toBe(401);
    const crossSite = await app.inject({
      method: 'POST',
      url: auditRestorePath(1),
      headers: { cookie, origin: 'https://evil.example' },
      payload: {},
    });
    expect(crossSite.statusCode).toBe(403);
  });
});
