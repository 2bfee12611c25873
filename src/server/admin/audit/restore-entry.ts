import { sql, type Kysely } from 'kysely';
import { isRestorable, type AuditRestored } from '../../../shared/admin/audit-api';
import { HttpError } from '../../http/errors';
import type { Database } from '../../db/schema';
import { auditEntry, recordAudit } from './audit-log';

/**
 * Puts back the rows a delete removed, with their ids and every column as it was, marks the
 * entry restored and records the restore, all in one transaction. 409 when an id is taken,
 * when the entry is not a delete, or when it was restored already.
 */
export async function restoreEntry(
  db: Kysely<Database>,
  id: number,
  adminEmail: string,
): Promise<AuditRestored> {
  return db.transaction().execute(async (trx) => {
    await sql`select 1 from admin_audit_log where id = ${id} for update`.execute(trx);
    const entry = await auditEntry(trx, id);
    if (!entry) throw new HttpError(404, `There is no activity entry ${id}.`);
    if (!isRestorable(entry) || !entry.tableName || !entry.before) {
      throw new HttpError(
        409,
        entry.restoredAt
          ? `Activity entry ${id} was restored already.`
          : `Only a delete can be restored; activity entry ${id} is a ${entry.action}.`,
      );
    }
    // Rows of a person erased since the delete were reduced to { id, erased }: they stay gone.
    const rows = entry.before.filter((row) => row.erased !== true);
    if (rows.length === 0) {
      throw new HttpError(409, `The rows of activity entry ${id} were erased; nothing to restore.`);
    }
    const rowIds = rows.map((row) => Number(row.id));
    const table = sql.table(entry.tableName);
    const ids = `{${rowIds.join(',')}}`;
    const { rows: taken } = await sql<{ id: number }>`
      select id from ${table} where id = any(${ids}::bigint[]) order by id`.execute(trx);
    if (taken.length > 0) {
      const list = taken.map((row) => Number(row.id)).join(', ');
      throw new HttpError(
        409,
        `Cannot restore: ${taken.length === 1 ? 'id' : 'ids'} ${list} of ${entry.tableName} ${taken.length === 1 ? 'is' : 'are'} taken.`,
      );
    }
    const { numAffectedRows } = await sql`
      insert into ${table} overriding system value
      select * from jsonb_populate_recordset(null::${table}, ${JSON.stringify(rows)}::jsonb)`.execute(
      trx,
    );
    await sql`update admin_audit_log set restored_at = now(), restored_by = ${adminEmail}
      where id = ${id}`.execute(trx);
    await recordAudit(trx, {
      adminEmail,
      action: 'restore',
      tableName: entry.tableName,
      rowIds,
      after: rows,
    });
    return { restored: Number(numAffectedRows ?? 0), entry: (await auditEntry(trx, id))! };
  });
}
