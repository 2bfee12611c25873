import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import type { AdminSessionInfo } from '../../shared/auth';
import { adminGuard } from './admin-guard';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the admin guard for requests inside the admin scope. */
    admin?: { email: string };
  }
}

export const ADMIN_PREFIX = '/api/admin';

/**
 * Guards the scope it is registered in (fastify-plugin, so its hook is the scope's): every
 * route there answers 401 without a session, 403 to a non-admin, and 403 to a write from
 * another origin, before its handler runs. app.ts registers it first in the /api/admin scope.
 */
export const adminGuarded = fp(
  async (scope) => {
    scope.decorateRequest('admin', undefined);
    scope.addHook('onRequest', adminGuard(scope));
  },
  { dependencies: ['auth'] },
);

/** GET /api/admin/session: who the signed-in admin is. */
export const adminSessionRoutes: FastifyPluginAsync = async (scope) => {
  scope.get('/session', async (request): Promise<AdminSessionInfo> => ({
    email: request.admin!.email,
  }));
};
