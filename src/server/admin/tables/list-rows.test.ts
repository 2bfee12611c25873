import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../../../tests/support/test-database';
import { PAGE_SIZE, type TableConfig } from '../../../shared/admin/table-config';
import { tableConfigurationsDir } from '../../app';
import { listRows } from './list-rows';
import { loadTableConfigurations } from './table-configurations';

describeEachDatabase('listRows', (use) => {
  it('pages through a table with gaps in its ids exactly as a full scan would', async () => {
    const { db } = use();
    const tables = await loadTableConfigurations(tableConfigurationsDir);
    const config = tables.find((t) => t.db_table_name === 'soul_reset_submissions')!;
    await sql`insert into soul_reset_submissions (name, email)
      select 'V' || g, 'v' || g || '@example.com' from generate_series(1, 13000) as g`.execute(db);
    // Gaps inside blocks, across a block boundary (4,096), and a whole block emptied.
    await sql`delete from soul_reset_submissions
      where id % 5 = 0 or id between 4090 and 4100 or id between 8192 and 12287`.execute(db);
    const { rows: expected } = await sql<{ id: number }>`
      select id from soul_reset_submissions order by id desc`.execute(db);
    const ids = expected.map((row) => Number(row.id));
    const lastPage = Math.ceil(ids.length / PAGE_SIZE) - 1;
    const pages = [0, 1, 2, 409, 410, 411, 500, 650, lastPage - 1, lastPage, lastPage + 1];
    for (const page of pages) {
      const { rows, count } = await listRows(db, config, page);
      expect(count, `count on page ${page}`).toBe(ids.length);
      expect(
        rows.map((row) => Number(row.id)),
        `page ${page}`,
      ).toEqual(ids.slice(page * PAGE_SIZE, page * PAGE_SIZE + PAGE_SIZE));
    }
    expect(config.field_list.map((f) => f.db_name)).toEqual(
      Object.keys((await listRows(db, config, 0)).rows[0]!),
    );
  });

  it('lists a configured table without counters by counting it', async () => {
    const { db } = use();
    await sql`create table plain_items (id bigint generated always as identity primary key,
      label text not null)`.execute(db);
    await sql`insert into plain_items (label) select 'item ' || g from generate_series(1, 25) as g`.execute(
      db,
    );
    const config: TableConfig = {
      db_table_name: 'plain_items',
      ui_table_name: 'Plain Items',
      field_list: [
        { db_name: 'id', ui_name: 'ID', type: 'id', required: false },
        { db_name: 'label', ui_name: 'Label', type: 'text', required: true },
      ],
    };
    const page = await listRows(db, config, 2);
    expect(page.count).toBe(25);
    expect(page.rows).toEqual([
      { id: 5, label: 'item 5' },
      { id: 4, label: 'item 4' },
      { id: 3, label: 'item 3' },
      { id: 2, label: 'item 2' },
      { id: 1, label: 'item 1' },
    ]);
  });
});
