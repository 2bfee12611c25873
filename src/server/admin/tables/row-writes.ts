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

/**
 * Deletes the rows with these ids and records them, whole, in one audit entry (so Restore can
 * put them back with their ids), in one statement. Returns how many rows existed.
 */
export async function deleteRowsAudited(
  db: Kysely<Database>,
  table: TableConfig,
  ids: number[],
  audit: { adminEmail: string; action: 'delete' | 'bulk_delete' },
): Promise<number> {
  const { rows } = await sql<{ deleted: number }>`
    with gone as (
      delete from ${sql.table(table.db_table_name)}
      where id = any(${`{${ids.join(',')}}`}::bigint[]) returning *
    )
    insert into admin_audit_log (admin_email, action, table_name, row_ids, before)
    select ${audit.adminEmail}, ${audit.action}, ${table.db_table_name},
      array_agg(id order by id), jsonb_agg(to_jsonb(gone) order by id)
    from gone having count(*) > 0
    returning cardinality(row_ids) as deleted`.execute(db);
  return rows[0] ? Number(rows[0].deleted) : 0;
}
