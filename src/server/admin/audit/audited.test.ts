import { sql, type Kysely } from 'kysely';
import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../../../tests/support/test-database';
import type { Database } from '../../db/schema';
import { audited } from './audit-log';

type Entry = {
  action: string;
  table_name: string;
  row_ids: string[];
  before: unknown;
  after: unknown;
};

async function entries(db: Kysely<Database>): Promise<Entry[]> {
  const { rows } = await sql<Entry>`
    select action, table_name, row_ids::text[] as row_ids, before, after
    from admin_audit_log order by id`.execute(db);
  return rows;
}

const inquiry = { name: 'Ann', email: 'ann@example.com' };

describeEachDatabase('audited', (use) => {
  it('records a change with its rows whole: after it, and before it when asked', async () => {
    const { db } = use();
    const admin = { adminEmail: 'owner@example.com', tableName: 'refund_inquiries' };
    const created = await db
      .transaction()
      .execute((trx) =>
        audited(trx, { ...admin, action: 'create', rowIds: (row) => [row.id] }, () =>
          trx
            .insertInto('refund_inquiries')
            .values(inquiry)
            .returning('id')
            .executeTakeFirstOrThrow(),
        ),
      );
    const id = Number(created.id);
    const updated = await db
      .transaction()
      .execute((trx) =>
        audited(trx, { ...admin, action: 'update', rowIds: [id], keepBefore: true }, () =>
          trx
            .updateTable('refund_inquiries')
            .set({ name: 'Bea' })
            .where('id', '=', id)
            .returning('name')
            .executeTakeFirst(),
        ),
      );
    expect(updated).toEqual({ name: 'Bea' });

    const [create, update] = await entries(db);
    expect(create).toMatchObject({ action: 'create', row_ids: [String(id)], before: null });
    expect(create!.after).toEqual([expect.objectContaining({ id, name: 'Ann' })]);
    expect(update).toMatchObject({ action: 'update', row_ids: [String(id)] });
    expect(update!.before).toEqual([expect.objectContaining({ id, name: 'Ann' })]);
    expect(update!.after).toEqual([expect.objectContaining({ id, name: 'Bea' })]);
  });

  it('changes and records nothing when the rows to keep are missing or the change did nothing', async () => {
    const { db } = use();
    const before = (await entries(db)).length;
    let ran = false;
    const missing = await db.transaction().execute((trx) =>
      audited(
        trx,
        {
          adminEmail: 'owner@example.com',
          action: 'update',
          tableName: 'refund_inquiries',
          rowIds: [987654],
          keepBefore: true,
        },
        async () => {
          ran = true;
          return true;
        },
      ),
    );
    expect(missing).toBeUndefined();
    expect(ran).toBe(false);
    const nothing = await db.transaction().execute((trx) =>
      audited(
        trx,
        {
          adminEmail: 'owner@example.com',
          action: 'resend',
          tableName: 'mail_deliveries',
          rowIds: (entry: { id: number }) => [entry.id],
        },
        async () => undefined,
      ),
    );
    expect(nothing).toBeUndefined();
    expect(await entries(db)).toHaveLength(before);
  });
});
