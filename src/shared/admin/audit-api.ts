/**
 * The admin activity log (DESIGN.md "Admin tools"), behind the admin guard:
 *
 * - GET  auditPath()?page=N          → 200 AuditPage, newest first (page from 0)
 * - POST auditRestorePath(id)        → 200 AuditRestored: a delete's rows back with their ids;
 *                                      409 when an id is taken, the entry is no delete, or it
 *                                      was restored already; 404 when there is no such entry
 */
export function auditPath(): string {
  return '/api/admin/audit';
}

export function auditRestorePath(id: number): string {
  return `/api/admin/audit/${id}/restore`;
}

export const auditActions = [
  'create',
  'update',
  'delete',
  'bulk_delete',
  'restore',
  'erase',
  'resend',
  'revoke',
  'upload',
  'publish',
  'import',
  'unsubscribe',
] as const;
export type AuditAction = (typeof auditActions)[number];

/** Whole stored rows, as JSON (timestamps as ISO 8601 strings). */
export type AuditRow = Record<string, unknown>;

export type AuditEntry = {
  id: number;
  adminEmail: string;
  action: AuditAction;
  /** The table changed; null for an erase, which spans tables. */
  tableName: string | null;
  rowIds: number[];
  /** The rows before the change (null for a create). */
  before: AuditRow[] | null;
  /** The rows after the change (null for a delete). */
  after: AuditRow[] | null;
  createdAt: string;
  /** When a delete was undone, and by whom. */
  restoredAt: string | null;
  restoredBy: string | null;
};

/** Entries per page of the activity log. */
export const AUDIT_PAGE_SIZE = 20;

export type AuditPage = { rows: AuditEntry[]; count: number; page: number; pageSize: number };

export type AuditRestored = { restored: number; entry: AuditEntry };

/** Whether Restore applies: a delete not yet undone. */
export function isRestorable(entry: AuditEntry): boolean {
  return (entry.action === 'delete' || entry.action === 'bulk_delete') && entry.restoredAt === null;
}
