import { sql, type Kysely } from 'kysely';
import { expect } from 'vitest';
import type { Database } from '../../src/server/db/schema';

/**
 * Every text, character and JSON column of every table in every schema but PostgreSQL's own,
 * with the rows in which `needle` appears (any case). Tables added later are walked too.
 */
export async function placesHolding(db: Kysely<Database>, needle: string): Promise<string[]> {
  const { rows: columns } = await sql<{ schema: string; table: string; column: string }>`
    select c.table_schema as schema, c.table_name as table, c.column_name as column
    from information_schema.columns c
    join information_schema.tables t
      on t.table_schema = c.table_schema and t.table_name = c.table_name
    where t.table_type = 'BASE TABLE'
      and c.table_schema not in ('pg_catalog', 'information_schema')
      and c.table_schema not like 'pg\\_%'
      and (c.data_type in ('text', 'character varying', 'character', 'json', 'jsonb', 'ARRAY')
        or c.udt_name = 'citext')
    order by 1, 2, 3`.execute(db);
  expect(columns.length).toBeGreaterThan(30);
  const found: string[] = [];
  for (const { schema, table, column } of columns) {
    const { rows } = await sql<{ n: number }>`
      select count(*) as n from ${sql.table(`${schema}.${table}`)}
      where strpos(lower(${sql.ref(column)}::text), ${needle.toLowerCase()}) > 0`.execute(db);
    if (Number(rows[0]!.n) > 0) found.push(`${schema}.${table}.${column}`);
  }
  return found;
}
