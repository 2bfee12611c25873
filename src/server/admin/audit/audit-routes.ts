import type { FastifyPluginAsync } from 'fastify';
import { HttpError } from '../../http/errors';
import { listAudit } from './audit-log';
import { restoreEntry } from './restore-entry';

const MAX_AUDIT_PAGE = 10_000_000;

function readWhole(raw: unknown, what: string, min: number, max: number): number {
  const value = typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!(value >= min && value <= max)) {
    throw new HttpError(400, `The ${what} must be a whole number from ${min} to ${max}.`);
  }
  return value;
}

/** The activity log of shared/admin/audit-api.ts, inside the /api/admin scope. */
export const auditRoutes: FastifyPluginAsync = async (scope) => {
  const db = scope.database.db;

  scope.get('/audit', async (request) => {
    const raw = (request.query as Record<string, unknown> | undefined)?.page;
    const page = raw === undefined ? 0 : readWhole(raw, 'page', 0, MAX_AUDIT_PAGE);
    return listAudit(db, page);
  });

  scope.post<{ Params: { id: string } }>('/audit/:id/restore', async (request) => {
    const id = readWhole(request.params.id, 'entry id', 1, Number.MAX_SAFE_INTEGER);
    return restoreEntry(db, id, request.admin!.email);
  });
};
