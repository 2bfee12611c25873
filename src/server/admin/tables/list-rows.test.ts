import { sql } from 'kysely';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../../../../tests/support/test-database';
import { PAGE_SIZE, type TableConfig } from '../../../shared/admin/table-config';
import { tableConfigurationsDir } from '../../app';
import { readListQuery } from './list-query';
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

describeEachDatabase('listRows with a search, sort and filter', (use) => {
  let config: TableConfig;
  const query = (raw: Record<string, string>) => {
    const read = readListQuery(config, raw);
    if (!read.ok) throw new Error(read.message);
    return read.query;
  };
  const ids = (rows: { id?: unknown }[]) => rows.map((row) => Number(row.id));

  beforeAll(async () => {
    const { db } = use();
    config = (await loadTableConfigurations(tableConfigurationsDir)).find(
      (t) => t.db_table_name === 'form_submissions',
    )!;
    // 1..30: names Person 1..30, every third not emailed, every second with purchase intent,
    // created a day apart from 2025-05-01 (UTC).
    await sql`insert into form_submissions
        (name, email, message, purchase_intent, email_sent, created_at)
      select 'Person ' || g, 'person' || g || '@example.com', 'Message number ' || g,
        g % 2 = 0, g % 3 <> 0, timestamptz '2025-05-01T12:00:00Z' + (g - 1) * interval '1 day'
      from generate_series(1, 30) as g`.execute(db);
    await sql`insert into form_submissions (name, email, message) values
      ('Zoë 100%_done', 'ZOE@Example.ORG', 'back\\slash'),
      ('Ann', 'ann@example.net', 'Looking for the PERSON 7 guide')`.execute(db);
  });

  it('searches name, email and message for a case-insensitive substring, with an exact count', async () => {
    const { db } = use();
    const found = await listRows(db, config, 0, query({ q: 'person 7' }));
    // "Person 7" by name, and Ann's message; newest first.
    expect(ids(found.rows)).toEqual([32, 7]);
    expect(found.count).toBe(2);
    expect((await listRows(db, config, 0, query({ q: 'EXAMPLE.org' }))).count).toBe(1);
    expect((await listRows(db, config, 0, query({ q: '  person2' }))).count).toBe(11);
    const many = await listRows(db, config, 1, query({ q: 'person' }));
    expect(many.count).toBe(31);
    expect(many.rows).toHaveLength(PAGE_SIZE);
  });

  it('matches %, _ and \\ in a search literally', async () => {
    const { db } = use();
    expect(ids((await listRows(db, config, 0, query({ q: '100%_' }))).rows)).toEqual([31]);
    expect((await listRows(db, config, 0, query({ q: '%' }))).count).toBe(1);
    expect((await listRows(db, config, 0, query({ q: '_' }))).count).toBe(1);
    expect((await listRows(db, config, 0, query({ q: 'back\\slash' }))).count).toBe(1);
    expect((await listRows(db, config, 0, query({ q: 'nobody-has-this' }))).count).toBe(0);
  });

  it('sorts by a configured column in either order, ties broken by id', async () => {
    const { db } = use();
    const byName = await listRows(db, config, 0, query({ sort: 'name', order: 'asc' }));
    expect(byName.rows.map((row) => row.name)).toEqual([
      'Ann',
      'Person 1',
      'Person 10',
      'Person 11',
      'Person 12',
      'Person 13',
      'Person 14',
      'Person 15',
      'Person 16',
      'Person 17',
    ]);
    expect(byName.count).toBe(32);
    const byIntent = await listRows(
      db,
      config,
      0,
      query({ sort: 'purchase_intent', order: 'desc' }),
    );
    expect(ids(byIntent.rows)).toEqual([30, 28, 26, 24, 22, 20, 18, 16, 14, 12]);
    const oldest = await listRows(db, config, 0, query({ sort: 'id', order: 'asc' }));
    expect(ids(oldest.rows)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('filters on equality, emptiness and a range of days, combined with a search', async () => {
    const { db } = use();
    const unsent = await listRows(db, config, 0, query({ filter: '{"email_sent":false}' }));
    // Every third row, and the two rows left at the default (not emailed).
    expect(unsent.count).toBe(12);
    expect(ids(unsent.rows)).toEqual([32, 31, 30, 27, 24, 21, 18, 15, 12, 9]);
    const intent = await listRows(
      db,
      config,
      0,
      query({ filter: '{"purchase_intent":true,"email_sent":false}' }),
    );
    expect(ids(intent.rows)).toEqual([30, 24, 18, 12, 6]);
    // 2025-05-03 through 2025-05-05 in UTC: rows 3, 4 and 5, both ends included.
    const days = await listRows(
      db,
      config,
      0,
      query({ filter: '{"created_at":{"from":"2025-05-03","to":"2025-05-05"}}' }),
    );
    expect(ids(days.rows)).toEqual([5, 4, 3]);
    const instants = await listRows(
      db,
      config,
      0,
      query({
        filter: '{"created_at":{"from":"2025-05-03T12:00:00Z","to":"2025-05-04T11:59:59Z"}}',
      }),
    );
    expect(ids(instants.rows)).toEqual([3]);
    const since = await listRows(
      db,
      config,
      0,
      query({ filter: '{"created_at":{"from":"2025-05-29"}}' }),
    );
    // Rows 29 and 30, and the two rows created now.
    expect(since.count).toBe(4);
    expect((await listRows(db, config, 0, query({ filter: '{"email_sent_at":null}' }))).count).toBe(
      32,
    );
    expect((await listRows(db, config, 0, query({ filter: '{"id":1.5}' }))).count).toBe(0);
    expect(ids((await listRows(db, config, 0, query({ filter: '{"id":7}' }))).rows)).toEqual([7]);
    expect(
      ids(
        (await listRows(db, config, 0, query({ filter: '{"email":"person9@example.com"}' }))).rows,
      ),
    ).toEqual([9]);
    const both = await listRows(
      db,
      config,
      0,
      query({ q: 'person 1', filter: '{"email_sent":false}', sort: 'name', order: 'desc' }),
    );
    expect(ids(both.rows)).toEqual([18, 15, 12]);
    expect(both.count).toBe(3);
  });
});

describeEachDatabase('listRows with many matches', (use) => {
  it('pages through more than 20,000 matches newest first, as through a few', async () => {
    const { db } = use();
    const config = (await loadTableConfigurations(tableConfigurationsDir)).find(
      (t) => t.db_table_name === 'refund_inquiries',
    )!;
    await sql`insert into refund_inquiries (name, email, email_sent)
      select 'Many ' || g, 'many' || g || '@example.com', g % 1000 <> 0
      from generate_series(1, 20500) as g`.execute(db);
    const read = (raw: Record<string, string>) => {
      const result = readListQuery(config, raw);
      if (!result.ok) throw new Error(result.message);
      return result.query;
    };
    const many = await listRows(db, config, 3, read({ q: 'many' }));
    expect(many.count).toBe(20500);
    expect(many.rows.map((row) => Number(row.id))).toEqual(
      Array.from({ length: PAGE_SIZE }, (_, i) => 20500 - 30 - i),
    );
    const few = await listRows(db, config, 1, read({ q: 'many', filter: '{"email_sent":false}' }));
    expect(few.count).toBe(20);
    expect(few.rows.map((row) => Number(row.id))).toEqual(
      Array.from({ length: PAGE_SIZE }, (_, i) => 10000 - i * 1000),
    );
  });
});
