import { sql, type Kysely } from 'kysely';
import type { TableConfig } from '../../../shared/admin/table-config';
import { dynamicTables, type StoredRow } from './dynamic-tables';
import type { WritableValues } from './row-input';
import type { Database } from '../../db/schema';

function columns(table: TableConfig) {
  return table.field_list.map((field) => field.db_name);
}

/** The database's clock, the same for every instance, like the created_at default. */
function touched(table: TableConfig, values: WritableValues) {
  return table.field_list.some((field) => field.db_name === 'updated_at')
    ? { ...values, updated_at: sql<Date>`now()` }
    : values;
}

export async function insertRow(
  db: Kysely<Database>,
  table: TableConfig,
  values: WritableValues,
): Promise<StoredRow> {
  const row = touched(table, values);
  const insert = dynamicTables(db).insertInto(table.db_table_name);
  return (Object.keys(row).length > 0 ? insert.values(row) : insert.defaultValues())
    .returning(columns(table))
    .executeTakeFirstOrThrow();
}

/** The updated row, or undefined when no row has this id. */
export async function updateRow(
  db: Kysely<Database>,
  table: TableConfig,
  id: number,
  values: WritableValues,
): Promise<StoredRow | undefined> {
  const row = touched(table, values);
  const tables = dynamicTables(db);
  if (Object.keys(row).length === 0) {
    return tables
      .selectFrom(table.db_table_name)
      .select(columns(table))
      .where('id', '=', id)
      .executeTakeFirst();
  }
  return tables
    .updateTable(table.db_table_name)
    .set(row)
    .where('id', '=', id)
    .returning(columns(table))
    .executeTakeFirst();
}

/** Whether a row with this id existed. */
export async function deleteRow(
  db: Kysely<Database>,
  table: TableConfig,
  id: number,
): Promise<boolean> {
  const deleted = await dynamicTables(db)
    .deleteFrom(table.db_table_name)
    .where('id', '=', id)
    .returning('id')
    .executeTakeFirst();
  return deleted !== undefined;
}
