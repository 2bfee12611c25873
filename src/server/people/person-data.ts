import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { PersonErased, PersonRecords } from '../../shared/admin/people-api';
import { recordAudit } from '../admin/audit/audit-log';
import type { Database } from '../db/schema';
import { markErasedSubscriber } from '../list/list-erase';
import { personDataLocations, type PersonDataLocation } from './person-data-locations';

const ERASED = '[erased]';

/** `text` contains the address, in any case. */
const containsAddress = (text: RawBuilder<unknown>, email: string) =>
  sql<boolean>`strpos(lower(${text}), ${email.toLowerCase()}) > 0`;

function ownedBy(location: Place, email: string): RawBuilder<boolean> {
  if (!location.owner) return sql<boolean>`false`;
  const column = sql.ref(location.owner.column);
  return location.owner.match === 'equals'
    ? sql<boolean>`lower(${column}) = ${email.toLowerCase()}`
    : containsAddress(sql`${column}`, email);
}

type Place = Omit<PersonDataLocation, 'mentions'> & { mentions: string[] };

/**
 * The places of person-data-locations.ts this database has, with `mentions: 'text'` read as
 * the table's text columns.
 */
async function presentPlaces(db: Kysely<Database>): Promise<Place[]> {
  const { rows } = await sql<{ table_name: string; column_name: string; data_type: string }>`
    select table_name, column_name, data_type from information_schema.columns
    where table_schema = current_schema()
      and table_name in (${sql.join(personDataLocations.map((place) => place.table))})`.execute(db);
  const columns = new Map<string, Map<string, string>>();
  for (const row of rows) {
    const table = columns.get(row.table_name) ?? new Map<string, string>();
    columns.set(row.table_name, table.set(row.column_name, row.data_type));
  }
  const places: Place[] = [];
  for (const location of personDataLocations) {
    const table = columns.get(location.table);
    if (!table || (location.owner && !table.has(location.owner.column))) continue;
    const mentions =
      location.mentions === 'text'
        ? [...table]
            .filter(([name, type]) => type === 'text' && name !== location.owner?.column)
            .map(([name]) => name)
            .sort()
        : (location.mentions ?? []).filter((name) => table.has(name));
    places.push({ ...location, mentions });
  }
  return places;
}

function mentioning(location: Place, email: string): RawBuilder<boolean> {
  const places = [
    ...location.mentions.map((column) => containsAddress(sql`${sql.ref(column)}`, email)),
    ...(location.rowArrays ?? []).map((column) =>
      containsAddress(sql`${sql.ref(column)}::text`, email),
    ),
  ];
  return places.length === 0 ? sql<boolean>`false` : sql<boolean>`(${sql.join(places, sql` or `)})`;
}

/** Every stored record of the address, place by place (places without any are left out). */
export async function findPerson(db: Kysely<Database>, email: string): Promise<PersonRecords> {
  const tables: PersonRecords['tables'] = [];
  for (const location of await presentPlaces(db)) {
    const { rows } = await sql<{ row: Record<string, unknown> }>`
      select to_jsonb(t) as row from ${sql.table(location.table)} as t
      where ${ownedBy(location, email)} or ${mentioning(location, email)}
      order by 1`.execute(db);
    if (rows.length > 0) {
      tables.push({ table: location.table, label: location.label, rows: rows.map((r) => r.row) });
    }
  }
  return { email, tables };
}

/** A regular expression matching the address literally, for regexp_replace with 'gi'. */
function literal(email: string): string {
  return email.replace(/[\\^$.*+?()[\]{}|]/g, (char) => `\\${char}`);
}

async function eraseAt(
  db: Kysely<Database>,
  location: Place,
  email: string,
): Promise<{ deleted: number; scrubbed: number }> {
  const table = sql.table(location.table);
  let deleted = 0;
  let scrubbed = 0;
  if (location.owner) {
    const anonymise = Object.entries(location.anonymise ?? {});
    const result =
      anonymise.length > 0
        ? await sql`update ${table} set ${sql.join(
            anonymise.map(([column, value]) => sql`${sql.ref(column)} = ${value}`),
          )} where ${ownedBy(location, email)}`.execute(db)
        : await sql`delete from ${table} where ${ownedBy(location, email)}`.execute(db);
    const count = Number(result.numAffectedRows ?? 0);
    if (anonymise.length > 0) scrubbed += count;
    else deleted += count;
  }
  const pattern = literal(email);
  for (const column of location.mentions) {
    const ref = sql.ref(column);
    const result = await sql`update ${table}
      set ${ref} = regexp_replace(${ref}, ${pattern}, ${ERASED}, 'gi')
      where ${containsAddress(sql`${ref}`, email)}`.execute(db);
    scrubbed += Number(result.numAffectedRows ?? 0);
  }
  for (const column of location.rowArrays ?? []) {
    const ref = sql.ref(column);
    // A row of the person (a value that is the address) keeps only its id; another row that
    // names the address keeps everything else.
    const result = await sql`update ${table} set ${ref} = (
        select jsonb_agg(case
          when exists (select 1 from jsonb_each_text(e) as kv(k, v) where lower(v) = ${email.toLowerCase()})
            then jsonb_build_object('id', e -> 'id', 'erased', true)
          else regexp_replace(e::text, ${pattern}, ${ERASED}, 'gi')::jsonb end order by n)
        from jsonb_array_elements(${ref}) with ordinality as a(e, n))
      where ${containsAddress(sql`${ref}::text`, email)}`.execute(db);
    scrubbed += Number(result.numAffectedRows ?? 0);
  }
  return { deleted, scrubbed };
}

/**
 * Erases the address from every place of person-data-locations.ts in one transaction, and
 * records the erase with counts per place only: the entry holds no personal data.
 */
export async function erasePerson(
  db: Kysely<Database>,
  email: string,
  adminEmail: string,
): Promise<PersonErased> {
  return db.transaction().execute(async (trx) => {
    const erased: PersonErased['erased'] = [];
    await markErasedSubscriber(trx, email);
    for (const location of await presentPlaces(trx)) {
      const counts = await eraseAt(trx, location, email);
      if (counts.deleted + counts.scrubbed > 0) erased.push({ table: location.table, ...counts });
    }
    await recordAudit(trx, {
      adminEmail,
      action: 'erase',
      tableName: null,
      rowIds: [],
      after: erased,
    });
    return { erased };
  });
}
