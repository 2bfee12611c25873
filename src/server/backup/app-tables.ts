import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema';

export type AppColumn = { name: string; type: string };

export type AppTable = {
  schema: string;
  name: string;
  /** Stored columns in table order; generated columns are left out (they are computed). */
  columns: AppColumn[];
  primaryKey: string[];
  /** Columns whose values come from a sequence (identity or serial), with its quoted name. */
  sequences: { column: string; sequence: string }[];
};

/** The table's name, quoted for SQL, with its schema. */
export function qualifiedName(table: { schema: string; name: string }): string {
  return `${quoteIdent(table.schema)}.${quoteIdent(table.name)}`;
}

export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/**
 * Every table of the app, found in the catalog rather than listed, so a table a later
 * migration adds is backed up with no change here: ordinary and partitioned tables outside
 * the system schemas and extensions, except schema_migrations (the backup records the
 * level instead) and insight_salts (a day's salt must not outlive its day in a file). Ordered so a table comes after the tables its foreign keys point to.
 */
export async function appTables(db: Kysely<Database>): Promise<AppTable[]> {
  const tables = await sql<{ oid: string; schema: string; name: string }>`
    select c.oid::text as oid, n.nspname as schema, c.relname as name
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where c.relkind in ('r', 'p') and not c.relispartition
      and n.nspname <> 'information_schema' and n.nspname not like 'pg\\_%'
      and c.relname not in ('schema_migrations', 'insight_salts')
      and not exists (
        select 1 from pg_depend d
        where d.classid = 'pg_class'::regclass and d.objid = c.oid and d.deptype = 'e'
      )
    order by n.nspname, c.relname`.execute(db);
  if (tables.rows.length === 0) return [];
  const oids = tables.rows.map((table) => table.oid);
  const columns = await sql<{
    rel: string;
    name: string;
    type: string;
    sequence: string | null;
  }>`
    select a.attrelid::text as rel, a.attname as name,
      format_type(a.atttypid, a.atttypmod) as type,
      pg_get_serial_sequence(a.attrelid::regclass::text, a.attname) as sequence
    from pg_attribute a
    where a.attrelid::text = any(${oids}::text[]) and a.attnum > 0 and not a.attisdropped
      and a.attgenerated = ''
    order by a.attrelid, a.attnum`.execute(db);
  const keys = await sql<{ rel: string; name: string }>`
    select i.indrelid::text as rel, a.attname as name
    from pg_index i
    cross join lateral unnest(i.indkey::int2[]) with ordinality as k(attnum, position)
    join pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.attnum
    where i.indisprimary and i.indrelid::text = any(${oids}::text[])
    order by i.indrelid, k.position`.execute(db);
  const references = await sql<{ rel: string; target: string }>`
    select distinct conrelid::text as rel, confrelid::text as target
    from pg_constraint
    where contype = 'f' and conrelid::text = any(${oids}::text[]) and conrelid <> confrelid`.execute(
    db,
  );

  const byOid = new Map<string, AppTable>();
  for (const table of tables.rows) {
    byOid.set(table.oid, {
      schema: table.schema,
      name: table.name,
      columns: [],
      primaryKey: [],
      sequences: [],
    });
  }
  for (const column of columns.rows) {
    const table = byOid.get(column.rel)!;
    table.columns.push({ name: column.name, type: column.type });
    if (column.sequence) table.sequences.push({ column: column.name, sequence: column.sequence });
  }
  for (const key of keys.rows) byOid.get(key.rel)!.primaryKey.push(key.name);

  const dependsOn = new Map<string, string[]>();
  for (const { rel, target } of references.rows) {
    dependsOn.set(rel, [...(dependsOn.get(rel) ?? []), target]);
  }
  const ordered: AppTable[] = [];
  const placed = new Set<string>();
  const visiting = new Set<string>();
  const place = (oid: string) => {
    if (placed.has(oid) || visiting.has(oid) || !byOid.has(oid)) return;
    visiting.add(oid);
    for (const target of dependsOn.get(oid) ?? []) place(target);
    visiting.delete(oid);
    placed.add(oid);
    ordered.push(byOid.get(oid)!);
  };
  for (const table of tables.rows) place(table.oid);
  return ordered;
}
