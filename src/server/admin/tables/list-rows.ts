import type { Kysely } from 'kysely';
import { PAGE_SIZE, type TableConfig } from '../../../shared/admin/table-config';
import { dynamicTables, type StoredRow } from './dynamic-tables';
import type { Database } from '../../db/schema';

/**
 * One admin page: PAGE_SIZE configured columns by id descending, and the exact row count.
 * The count scans the table; a cheaper strategy (an estimate past some size, a counter kept
 * by trigger) would replace countRows alone.
 */
export async function listRows(
  db: Kysely<Database>,
  table: TableConfig,
  page: number,
): Promise<{ rows: StoredRow[]; count: number }> {
  const [rows, count] = await Promise.all([
    dynamicTables(db)
      .selectFrom(table.db_table_name)
      .select(table.field_list.map((field) => field.db_name))
      .orderBy('id', 'desc')
      .limit(PAGE_SIZE)
      .offset(page * PAGE_SIZE)
      .execute(),
    countRows(db, table),
  ]);
  return { rows, count };
}

async function countRows(db: Kysely<Database>, table: TableConfig): Promise<number> {
  const { count } = await dynamicTables(db)
    .selectFrom(table.db_table_name)
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  // count(*) is a bigint, which database.ts parses into a number on both drivers.
  return count;
}
