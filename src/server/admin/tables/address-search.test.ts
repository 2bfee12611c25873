import { sql } from 'kysely';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../../../../tests/support/test-database';
import { PAGE_SIZE, type TableConfig } from '../../../shared/admin/table-config';
import { tableConfigurationsDir } from '../../app';
import { readListQuery } from './list-query';
import { countMatching, listRows } from './list-rows';
import { loadTableConfigurations } from './table-configurations';

const ALIKE = 3000;

describeEachDatabase('listRows searching for an address among many alike', (use) => {
  let config: TableConfig;
  const query = (q: string) => {
    const read = readListQuery(config, { q });
    if (!read.ok) throw new Error(read.message);
    return read.query;
  };

  beforeAll(async () => {
    const { db } = use();
    config = (await loadTableConfigurations(tableConfigurationsDir)).find(
      (t) => t.db_table_name === 'form_submissions',
    )!;
    await sql`insert into form_submissions (name, email, message)
      select 'Person ' || g, 'bulk' || g || '@scale.test',
        case when g % 7 = 0 then 'Which bundle suits me?' else '' end
      from generate_series(1, ${ALIKE}::int) as g`.execute(db);
    // The search's text before its "@" at the end of a longer local part, in capitals, after
    // a second "@", in a name or a message; an address with no "@" or nothing before it;
    // LIKE's wildcards and escape as plain characters, and what they would match as wildcards.
    await sql`insert into form_submissions (name, email, message) values
      ('Xavier', 'xbulk123@scale.test', ''),
      ('Upper', 'BULK123@SCALE.TEST', ''),
      ('Two ats', 'team@bulk123@scale.test', ''),
      ('bulk123@scale.test', 'named@elsewhere.test', ''),
      ('Reach me at owner@shop.example', 'someone@elsewhere.test', ''),
      ('Quoted', 'quoted@elsewhere.test', 'write to Bulk123@Scale.test please'),
      ('No at', 'bulk123.scale.test', ''),
      ('Empty local', '@scale.test', ''),
      ('Wild', 'bulk_1%@scale.test', ''),
      ('Tame', 'bulkx1yz@scale.test', ''),
      ('Slash', 'back\\slash@scale.test', ''),
      ('Longer domain', 'bulk123@scale.testing', '')`.execute(db);
    await sql`analyze form_submissions`.execute(db);
  });

  /** Today's search without any index in mind: a case-insensitive substring of three columns. */
  async function plainSearch(q: string): Promise<number[]> {
    const { db } = use();
    const { rows } = await sql<{ id: number }>`
      select id from form_submissions
      where strpos(lower(name), lower(${q})) > 0 or strpos(lower(email), lower(${q})) > 0
        or strpos(lower(message), lower(${q})) > 0
      order by id desc`.execute(db);
    return rows.map((row) => Number(row.id));
  }

  const terms = [
    'bulk123@scale.test', // an exact address
    'BULK123@scale', // its start
    'bulk123@',
    'bulk12', // its start without the "@"
    '2345', // a number from the middle
    '23@sc',
    'person 12', // a name
    'bundle', // a word of a message
    '@scale.test', // a domain
    'team@bulk123@', // two "@"
    'bulk_1%@scale',
    'k\\slash@',
    'nobody@scale.test',
    'owner@shop', // only in a name
  ];

  it.each(terms)('finds the same rows and count as a plain substring search for %j', async (q) => {
    const { db } = use();
    const expected = await plainSearch(q);
    const lastPage = Math.max(0, Math.ceil(expected.length / PAGE_SIZE) - 1);
    for (const page of new Set([0, 1, 2, lastPage])) {
      const found = await listRows(db, config, page, query(q));
      expect(found.count, `count, page ${page}`).toBe(expected.length);
      expect(
        found.rows.map((row) => Number(row.id)),
        `page ${page}`,
      ).toEqual(expected.slice(page * PAGE_SIZE, (page + 1) * PAGE_SIZE));
    }
  });

  it('finds the rows the address cases above are about', async () => {
    const emails = async (q: string) =>
      (await listRows(use().db, config, 0, query(q))).rows.map((row) => row.email).sort();
    expect(await emails('bulk123@scale')).toEqual([
      'BULK123@SCALE.TEST',
      'bulk123@scale.test',
      'bulk123@scale.testing',
      'named@elsewhere.test',
      'quoted@elsewhere.test',
      'team@bulk123@scale.test',
      'xbulk123@scale.test',
    ]);
    expect(await emails('bulk_1%@')).toEqual(['bulk_1%@scale.test']);
  });

  it('reads an address search from the address key index, not the email trigram index', async () => {
    const { db } = use();
    const plan = await db.connection().execute(async (connection) => {
      // Only index paths to choose from, as at a size where scanning the table costs more.
      await sql`set enable_seqscan = off`.execute(connection);
      try {
        const { rows } = await sql<Record<string, string>>`explain ${countMatching(
          config,
          query('bulk123@scale'),
        )}`.execute(connection);
        return rows.map((row) => Object.values(row)[0]).join('\n');
      } finally {
        await sql`reset enable_seqscan`.execute(connection);
      }
    });
    expect(plan).toContain('form_submissions_address_key_idx');
    expect(plan).not.toContain('form_submissions_email_trgm_idx');
  });

  it('finds an "@" term in a name that holds an "@"', async () => {
    const names = async (q: string) =>
      (await listRows(use().db, config, 0, query(q))).rows.map((row) => row.name);
    expect(await names('OWNER@shop')).toEqual(['Reach me at owner@shop.example']);
  });

  it('reads the names and messages of an "@" term from the partial indexes of texts with an "@"', async () => {
    const { db } = use();
    const plan = await db.connection().execute(async (connection) => {
      await sql`set enable_seqscan = off`.execute(connection);
      try {
        const { rows } = await sql<Record<string, string>>`explain ${countMatching(
          config,
          query('bulk123@scale'),
        )}`.execute(connection);
        return rows.map((row) => Object.values(row)[0]).join('\n');
      } finally {
        await sql`reset enable_seqscan`.execute(connection);
      }
    });
    expect(plan).toContain('form_submissions_name_at_trgm_idx');
    expect(plan).toContain('form_submissions_message_at_trgm_idx');
    expect(plan).not.toContain('form_submissions_name_trgm_idx');
    expect(plan).not.toContain('form_submissions_message_trgm_idx');
  });
});
