import { sql, type Kysely } from 'kysely';
import {
  AUDIT_PAGE_SIZE,
  type AuditAction,
  type AuditEntry,
  type AuditPage,
  type AuditRow,
} from '../../../shared/admin/audit-api';
import type { Database } from '../../db/schema';

type StoredEntry = {
  id: number;
  admin_email: string;
  action: AuditAction;
  table_name: string | null;
  row_ids: (number | string)[];
  before: AuditRow[] | null;
  after: AuditRow[] | null;
  created_at: Date;
  restored_at: Date | null;
  restored_by: string | null;
};

export function toAuditEntry(row: StoredEntry): AuditEntry {
  return {
    id: Number(row.id),
    adminEmail: row.admin_email,
    action: row.action,
    tableName: row.table_name,
    rowIds: row.row_ids.map(Number),
    before: row.before,
    after: row.after,
    createdAt: new Date(row.created_at).toISOString(),
    restoredAt: row.restored_at && new Date(row.restored_at).toISOString(),
    restoredBy: row.restored_by,
  };
}

export type AuditRecord = {
  adminEmail: string;
  action: AuditAction;
  tableName: string | null;
  rowIds: number[];
  before?: AuditRow[] | null;
  after?: AuditRow[] | null;
};

/** Records one admin change; call it in the change's own transaction. */
export async function recordAudit(db: Kysely<Database>, record: AuditRecord): Promise<number> {
  const { rows } = await sql<{ id: number }>`
    insert into admin_audit_log (admin_email, action, table_name, row_ids, before, after)
    values (${record.adminEmail}, ${record.action}, ${record.tableName},
      ${`{${record.rowIds.join(',')}}`}::bigint[],
      ${record.before ? JSON.stringify(record.before) : null}::jsonb,
      ${record.after ? JSON.stringify(record.after) : null}::jsonb)
    returning id`.execute(db);
  return Number(rows[0]!.id);
}

/** Whole rows of a table by id, as JSON objects: what an entry keeps before or after. */
export async function wholeRows(
  db: Kysely<Database>,
  table: string,
  ids: number[],
): Promise<AuditRow[]> {
  const { rows } = await sql<{ row: AuditRow }>`
    select to_jsonb(t) as row from ${sql.table(table)} as t
    where id = any(${`{${ids.join(',')}}`}::bigint[]) order by id`.execute(db);
  return rows.map((row) => row.row);
}

export type AuditedChange<T> = {
  adminEmail: string;
  action: AuditAction;
  tableName: string;
  /** The rows the change touches: known beforehand, or read from what the change returns. */
  rowIds: number[] | ((result: NonNullable<T>) => number[]);
  /** Keep the rows as they were too. When none of them exists, nothing changes: undefined. */
  keepBefore?: boolean;
};

/**
 * Runs `change` in the transaction `trx` and records it in one audit entry with its rows whole,
 * as they are after it (and before it, with keepBefore). A change that comes to null or
 * undefined changed nothing and is not recorded.
 */
export async function audited<T>(
  trx: Kysely<Database>,
  entry: AuditedChange<T> & { keepBefore: true; rowIds: number[] },
  change: () => Promise<T>,
): Promise<T | undefined>;
export async function audited<T>(
  trx: Kysely<Database>,
  entry: AuditedChange<T>,
  change: () => Promise<T>,
): Promise<T>;
export async function audited<T>(
  trx: Kysely<Database>,
  { rowIds, keepBefore, ...record }: AuditedChange<T>,
  change: () => Promise<T>,
): Promise<T | undefined> {
  let before: AuditRow[] | undefined;
  if (keepBefore && Array.isArray(rowIds)) {
    before = await wholeRows(trx, record.tableName, rowIds);
    if (before.length === 0) return undefined;
  }
  const result = await change();
  if (result === null || result === undefined) return result;
  const ids = typeof rowIds === 'function' ? rowIds(result) : rowIds;
  const after = await wholeRows(trx, record.tableName, ids);
  await recordAudit(trx, { ...record, rowIds: ids, before, after });
  return result;
}

export async function auditEntry(
  db: Kysely<Database>,
  id: number,
): Promise<AuditEntry | undefined> {
  const { rows } = await sql<StoredEntry>`
    select * from admin_audit_log where id = ${id}`.execute(db);
  return rows[0] && toAuditEntry(rows[0]);
}

/** One page of the log, newest first, with the number of entries. */
export async function listAudit(db: Kysely<Database>, page: number): Promise<AuditPage> {
  const [rows, count] = await Promise.all([
    sql<StoredEntry>`select * from admin_audit_log order by id desc
      limit ${AUDIT_PAGE_SIZE} offset ${page * AUDIT_PAGE_SIZE}`.execute(db),
    sql<{ count: number }>`select count(*) as count from admin_audit_log`.execute(db),
  ]);
  return {
    rows: rows.rows.map(toAuditEntry),
    count: Number(count.rows[0]!.count),
    page,
    pageSize: AUDIT_PAGE_SIZE,
  };
}
