import { sql, type Kysely } from 'kysely';
import type { TableConfig } from '../../../shared/admin/table-config';
import { TableConfigurationError } from './table-configurations';
import type { Database } from '../../db/schema';

/**
 * Fails with one line listing every configured table or column the database lacks, so a typo
 * in a configuration stops the start instead of failing each admin request.
 */
export async function checkConfiguredColumns(
  db: Kysely<Database>,
  tables: readonly TableConfig[],
): Promise<void> {
  if (tables.length === 0) return;
  const { rows } = await sql<{ table_name: string; column_name: string }>`
    select table_name, column_name from information_schema.columns
    where table_schema = current_schema()
      and table_name in (${sql.join(tables.map((table) => table.db_table_name))})`.execute(db);
  const present = new Map<string, Set<string>>();
  for (const { table_name, column_name } of rows) {
    present.set(table_name, (present.get(table_name) ?? new Set()).add(column_name));
  }
  const missing: string[] = [];
  for (const table of tables) {
    const columns = present.get(table.db_table_name);
    if (!columns) {
      missing.push(`table "${table.db_table_name}"`);
      continue;
    }
    for (const field of table.field_list) {
      if (!columns.has(field.db_name)) {
        missing.push(`column "${field.db_name}" of table "${table.db_table_name}"`);
      }
    }
  }
  if (missing.length > 0) {
    throw new TableConfigurationError(
      `the admin table configurations name what the database does not have: ${missing.join(', ')}.`,
    );
  }
}
