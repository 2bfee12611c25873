import { sql, type Kysely } from 'kysely';
import { PAGE_SIZE, type TableConfig } from '../../../shared/admin/table-config';
import { dynamicTables, type StoredRow } from './dynamic-tables';
import { defaultListQuery, isPlainListing, type ListQuery } from './list-query';
import { orderMatching, whereMatching } from './row-conditions';
import type { Database } from '../../db/schema';

type Page = { rows: StoredRow[]; count: number };

/** Up to this many matches, a page is sorted from the matches rather than walked in order. */
const FEW_MATCHES = 20_000;

/**
 * One admin page: PAGE_SIZE configured columns of the rows `query` matches, in its order, and
 * the exact count of those rows. The plain listing (everything, id descending) of a table
 * with the counters of migration 0003 is read from them, at the same cost for a million rows
 * as for a thousand; a search or filter is answered through the indexes of migration 0005.
 */
export async function listRows(
  db: Kysely<Database>,
  table: TableConfig,
  page: number,
  query: ListQuery = defaultListQuery,
): Promise<Page> {
  if (!isPlainListing(query)) return listMatching(db, table, page, query);
  const counted = await countedTables(db);
  return counted.has(table.db_table_name)
    ? listFromCounters(db, table, page)
    : listByScanning(db, table, page);
}

async function listMatching(
  db: Kysely<Database>,
  table: TableConfig,
  page: number,
  query: ListQuery,
): Promise<Page> {
  // The count first: it says how to find the page.
  const count = Number((await countMatching(table, query).execute(db)).rows[0]!.count);
  const rows = await pageMatching(table, query, page, count).execute(db);
  return { rows: rows.rows, count };
}

/** The exact number of rows `query` matches. */
export function countMatching(table: TableConfig, query: ListQuery) {
  return sql<{ count: number }>`
    select count(*) as count from ${sql.table(table.db_table_name)}
    where ${whereMatching(table, query)}`;
}

/**
 * Page `page` of the `count` rows `query` matches. Walking the id index from the newest row
 * finds ten of many matches at once, but reads the whole table for a rare search term (the
 * planner cannot tell how rare a substring is); a few matches are cheaper to take from the
 * search indexes and sort.
 */
export function pageMatching(table: TableConfig, query: ListQuery, page: number, count: number) {
  const columns = sql.join(table.field_list.map((field) => sql.ref(field.db_name)));
  const order =
    count <= FEW_MATCHES ? orderMatching(query, { avoidIndex: true }) : orderMatching(query);
  return sql<StoredRow>`
    select ${columns} from ${sql.table(table.db_table_name)} where ${whereMatching(table, query)}
    order by ${order}
    limit ${PAGE_SIZE} offset ${page * PAGE_SIZE}`;
}

const countedTablesOf = new WeakMap<Kysely<Database>, Promise<Set<string>>>();

/** Tables whose inserts, deletes and truncates update table_row_counts. */
function countedTables(db: Kysely<Database>): Promise<Set<string>> {
  let tables = countedTablesOf.get(db);
  if (!tables) {
    tables = sql<{ table_name: string }>`
      select event_object_table as table_name from information_schema.triggers
      where trigger_schema = current_schema()
        and trigger_name = event_object_table || '_count_inserts'`
      .execute(db)
      .then(({ rows }) => new Set(rows.map((row) => row.table_name)));
    tables.catch(() => countedTablesOf.delete(db));
    countedTablesOf.set(db, tables);
  }
  return tables;
}

async function listFromCounters(
  db: Kysely<Database>,
  table: TableConfig,
  page: number,
): Promise<Page> {
  const name = table.db_table_name;
  const columns = sql.join(table.field_list.map((field) => sql.ref(field.db_name)));
  const skip = page * PAGE_SIZE;
  // The counters say which block of 4,096 ids holds row number `skip` (from the newest) and
  // how many rows of that block come before it; the scan then starts inside that block.
  const [rows, count] = await Promise.all([
    sql<StoredRow>`
      with blocks as (
        select block, sum(n) as n from table_row_counts where table_name = ${name} group by block
      ), through as (
        select block, n, sum(n) over (order by block desc) as total from blocks
      ), start as (
        select block, (${skip}::bigint - (total - n))::bigint as skip from through
        where total > ${skip}::bigint order by block desc limit 1
      )
      select ${columns} from ${sql.table(name)}
      where id < ((select block from start) + 1) << 12
      order by id desc
      offset (select skip from start) limit ${PAGE_SIZE}`.execute(db),
    sql<{ count: number }>`
      select coalesce(sum(n), 0)::bigint as count from table_row_counts
      where table_name = ${name}`.execute(db),
  ]);
  return { rows: rows.rows, count: Number(count.rows[0]!.count) };
}

async function listByScanning(
  db: Kysely<Database>,
  table: TableConfig,
  page: number,
): Promise<Page> {
  const [rows, count] = await Promise.all([
    dynamicTables(db)
      .selectFrom(table.db_table_name)
      .select(table.field_list.map((field) => field.db_name))
      .orderBy('id', 'desc')
      .limit(PAGE_SIZE)
      .offset(page * PAGE_SIZE)
      .execute(),
    dynamicTables(db)
      .selectFrom(table.db_table_name)
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow(),
  ]);
  // count(*) is a bigint, which database.ts parses into a number on both drivers.
  return { rows, count: count.count };
}
