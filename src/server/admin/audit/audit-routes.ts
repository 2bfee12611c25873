import type { FastifyPluginAsync } from 'fastify';
import { idParam, pageQuery, parsedOr400 } from '../../http/input';
import { listAudit } from './audit-log';
import { restoreEntry } from './restore-entry';

/** The activity log of shared/admin/audit-api.ts, inside the /api/admin scope. */
export const auditRoutes: FastifyPluginAsync = async (scope) => {
  const db = scope.database.db;

  scope.get('/audit', async (request) => {
    const { page } = parsedOr400(pageQuery, request.query);
    return listAudit(db, page);
  });

  scope.post('/audit/:id/restore', async (request) => {
    const { id } = parsedOr400(idParam, request.params);
    return restoreEntry(db, id, request.admin!.email);
  });
};
