import { sql, type Kysely } from 'kysely';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  createEmptyTestDatabase,
  describeEachDatabase,
  type TestDatabase,
} from '../../../tests/support/test-database';
import { seedContent } from '../../shared/store/seed-content';
import { loadMigrations, migrate, type Migration } from '../db/migrate';
import type { Database } from '../db/schema';
import { appTables, qualifiedName } from './app-tables';
import { loadBackup } from './load-backup';
import { readBackupFile } from './read-backup-file';
import { readSnapshot } from './read-snapshot';
import { writeBackupFile } from './write-backup-file';

/** A table with every kind of value a later table might hold, in a migration of its own. */
const typesMigration: Migration = {
  version: '9001_backup_test_types',
  sql: `CREATE TABLE backup_test_types (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    label text NOT NULL,
    data jsonb,
    raw bytea,
    amount numeric,
    ratio double precision,
    big bigint,
    flag boolean,
    at timestamptz,
    day date,
    tags text[],
    span interval,
    label_length integer GENERATED ALWAYS AS (length(label)) STORED
  );`,
};
/** A later migration the backup predates: its column takes its default on restore. */
const addColumnMigration: Migration = {
  version: '9002_backup_test_added_column',
  sql: `ALTER TABLE backup_test_types ADD COLUMN colour text NOT NULL DEFAULT 'blue';`,
};

const TRICKY = 'Zoë 😀 “quotes” \'single\' "double" \\ back\\slash\nnew line\r\n\ttab\u2028end';

let tempDir: string;
beforeAll(async () => {
  tempDir = await mkdtemp(path.join(os.tmpdir(), 'soul-reset-backup-test-'));
});
afterAll(async () => {
  await rm(tempDir, { recursive: true, force: true });
});

/** Every table's rows, as JSON, in primary key order: what two databases must agree on. */
async function contents(db: Kysely<Database>): Promise<Record<string, unknown[]>> {
  const result: Record<string, unknown[]> = {};
  for (const table of await appTables(db)) {
    const order =
      table.primaryKey.length > 0
        ? `order by ${table.primaryKey.map((k) => `"${k}"`).join(', ')}`
        : '';
    const rows = await sql
      .raw<{ row: unknown }>(`select to_jsonb(t) as row from ${qualifiedName(table)} t ${order}`)
      .execute(db);
    result[table.name] = rows.rows.map((row) => row.row);
  }
  return result;
}

async function backUp(database: TestDatabase, name: string): Promise<string> {
  const file = path.join(tempDir, `${name}.jsonl.gz`);
  await writeBackupFile(readSnapshot(database.db, database.kind), file);
  return file;
}

async function fillSampleRows(db: Kysely<Database>) {
  for (let i = 0; i < 5; i++) {
    await db
      .insertInto('form_submissions')
      .values({
        name: `${TRICKY} ${i}`,
        email: `person${i}@example.com`,
        message: TRICKY,
        purchase_intent: i % 2 === 0,
        email_sent: i % 3 === 0,
        email_sent_at: i % 3 === 0 ? '2026-01-02T03:04:05.123456Z' : null,
      })
      .execute();
  }
  // A deleted row: its id must not be handed out again after a restore.
  await sql`delete from form_submissions where id = (select max(id) from form_submissions)`.execute(
    db,
  );
  await sql`insert into auth_user (id, name, email, "emailVerified", role, banned)
    values ('u1', ${TRICKY}, 'owner@example.com', true, 'admin', null)`.execute(db);
  await sql`insert into auth_session (id, "expiresAt", token, "updatedAt", "userId")
    values ('s1', '2030-01-01T00:00:00Z', 'token-hash', now(), 'u1')`.execute(db);
  await sql`insert into auth_rate_limit (id, key, count, "lastRequest")
    values ('r1', '203.0.113.9/sign-in', 3, 9007199254740993)`.execute(db);
  await sql`insert into insight_salts (day, salt) values (current_date, '\\x0102'::bytea)`.execute(
    db,
  );
  await sql`insert into insight_events (day, name, path, visitor)
    values (current_date, 'page_view', '/', 'a1b2')`.execute(db);
  await sql`insert into insight_daily (day, name, visitors, events)
    values ('2026-01-01', 'page_view', 2, 3)`.execute(db);
  const content = seedContent();
  const edited = { ...content, hero: { ...content.hero, title: TRICKY } };
  await sql`insert into store_versions (version, content, published_at, published_by) values
    (1, ${JSON.stringify(content)}::jsonb, '2026-01-01T00:00:00.123456Z', null),
    (2, ${JSON.stringify(edited)}::jsonb, now(), 'owner@example.com')`.execute(db);
  await sql`insert into store_draft (content, updated_by)
    values (${JSON.stringify(edited)}::jsonb, 'owner@example.com')`.execute(db);
}

describeEachDatabase('backup and restore', (use, kind) => {
  const migrations = async () => [...(await loadMigrations()), typesMigration];
  let targets: TestDatabase[] = [];
  const emptyTarget = async () => {
    const target = await createEmptyTestDatabase(kind);
    targets.push(target);
    return target;
  };
  afterAll(async () => {
    await Promise.all(targets.map((target) => target.dispose()));
    targets = [];
  });

  beforeAll(async () => {
    const db = use().db;
    await migrate(db, await migrations());
    await fillSampleRows(db);
    await sql`insert into backup_test_types (label, data, raw, amount, ratio, big, flag, at, day, tags, span)
      values
        (${TRICKY}, ${JSON.stringify({ nested: { list: [1, 'two', null, true] }, text: TRICKY })}::jsonb,
         '\\x00ff10fe'::bytea, 12345678901234567890.123456789, 0.1, 9223372036854775807, true,
         '1999-12-31T23:59:59.999999+05:30', '2024-02-29', array['a', 'b,c', 'd"e', null],
         '1 year 2 mons 3 days 04:05:06.789'),
        ('', 'null'::jsonb, '\\x'::bytea, -0.5, 'NaN', -9223372036854775808, false,
         '0001-01-01T00:00:00Z', '0001-01-01', '{}', '-1 day'),
        ('nulls', null, null, null, '-Infinity', null, null, null, null, null, null)`.execute(db);
  }, 60_000);

  it('restores every table, value for value, into a new empty database', async () => {
    const file = await backUp(use(), 'round-trip');
    const target = await emptyTarget();
    const summary = await loadBackup(target.db, readBackupFile(file), {
      migrations: await migrations(),
    });
    expect(summary.tables).toBeGreaterThanOrEqual(13);
    const expected = await contents(use().db);
    expect(Object.keys(expected)).toEqual(
      expect.arrayContaining(['auth_user', 'table_row_counts']),
    );
    expect(await contents(target.db)).toEqual(expected);
    expect(expected.backup_test_types).toHaveLength(3);
    expect(expected.form_submissions).toHaveLength(4);
    expect(expected.insight_events).toHaveLength(1);
    // The store's versions and draft, added by a later migration, with no change to the backup.
    expect(expected.store_versions).toHaveLength(2);
    expect(expected.store_draft).toHaveLength(1);
    // A day's salt never leaves the database it was made in.
    expect(expected).not.toHaveProperty('insight_salts');
    expect(await target.db.selectFrom('insight_salts').selectAll().execute()).toEqual([]);

    // New records continue after every id the source handed out, the deleted one included.
    const before = await sql<{ max: number }>`select max(id) as max from form_submissions`.execute(
      use().db,
    );
    const inserted = await target.db
      .insertInto('form_submissions')
      .values({ name: 'After', email: 'after@example.com' })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect(inserted.id).toBe(before.rows[0]!.max + 2);
    const counts = await sql<{ n: number }>`
      select sum(n)::int as n from table_row_counts where table_name = 'form_submissions'`.execute(
      target.db,
    );
    expect(counts.rows[0]!.n).toBe(5);
  }, 60_000);

  it('writes a versioned header with the migration level, columns and row counts', async () => {
    const file = await backUp(use(), 'header');
    const [first] = gunzipSync(await readFile(file))
      .toString('utf8')
      .split('\n');
    const header = JSON.parse(first!);
    expect(header).toMatchObject({
      format: 'soul-reset-backup',
      version: 1,
      source: kind,
      migrations: (await migrations()).map((m) => m.version),
    });
    expect(Date.parse(header.created_at)).toBeGreaterThan(Date.now() - 60_000);
    const users = header.tables.find((t: { name: string }) => t.name === 'auth_user');
    expect(users.rows).toBe(1);
    expect(users.columns).toContainEqual({ name: 'emailVerified', type: 'boolean' });
    const types = header.tables.find((t: { name: string }) => t.name === 'backup_test_types');
    expect(types.columns.map((c: { name: string }) => c.name)).not.toContain('label_length');
    expect(types.sequences).toEqual([{ column: 'id', last_value: '3' }]);
    const names = header.tables.map((t: { name: string }) => t.name);
    expect(names.indexOf('auth_user')).toBeLessThan(names.indexOf('auth_session'));
    expect(names).not.toContain('schema_migrations');
    expect(names).not.toContain('insight_salts');
    expect(names).toEqual(expect.arrayContaining(['insight_events', 'insight_daily']));
  }, 60_000);

  it('restores a backup from an older migration level into the newer schema', async () => {
    const all = await migrations();
    const old = await emptyTarget();
    // The level before the row counters (0003) existed.
    await migrate(old.db, all.slice(0, 2));
    await old.db
      .insertInto('refund_inquiries')
      .values([
        { name: 'Old one', email: 'old1@example.com' },
        { name: 'Old two', email: 'old2@example.com' },
      ])
      .execute();
    const file = await backUp(old, 'older-level');
    const target = await emptyTarget();
    await loadBackup(target.db, readBackupFile(file), { migrations: [...all, addColumnMigration] });

    const versions = await sql<{
      version: string;
    }>`select version from schema_migrations order by 1`.execute(target.db);
    expect(versions.rows.map((row) => row.version)).toEqual(
      [...all, addColumnMigration].map((m) => m.version),
    );
    const rows = await target.db
      .selectFrom('refund_inquiries')
      .select(['name'])
      .orderBy('id')
      .execute();
    expect(rows).toEqual([{ name: 'Old one' }, { name: 'Old two' }]);
    // The counters the newer level keeps were computed from the restored rows.
    const counts = await sql<{ n: number }>`
      select sum(n)::int as n from table_row_counts where table_name = 'refund_inquiries'`.execute(
      target.db,
    );
    expect(counts.rows[0]!.n).toBe(2);
    // A column the backup predates takes its default on rows added after.
    await sql`insert into backup_test_types (label) values ('new')`.execute(target.db);
    const added = await sql<{ colour: string }>`select colour from backup_test_types`.execute(
      target.db,
    );
    expect(added.rows).toEqual([{ colour: 'blue' }]);
  }, 120_000);

  it('a backup with rows in a table carries its defaults for columns added later', async () => {
    const file = await backUp(use(), 'add-column');
    const target = await emptyTarget();
    await loadBackup(target.db, readBackupFile(file), {
      migrations: [...(await migrations()), addColumnMigration],
    });
    const rows = await sql<{ label: string; colour: string }>`
      select label, colour from backup_test_types order by id`.execute(target.db);
    expect(rows.rows.map((row) => row.colour)).toEqual(['blue', 'blue', 'blue']);
    expect(rows.rows[0]!.label).toBe(TRICKY);
  }, 60_000);

  it('copies straight from one database to another without a file', async () => {
    const target = await emptyTarget();
    await loadBackup(target.db, readSnapshot(use().db, kind), { migrations: await migrations() });
    expect(await contents(target.db)).toEqual(await contents(use().db));
  }, 60_000);
});
