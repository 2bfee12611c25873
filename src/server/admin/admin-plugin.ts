import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import type { AdminSessionInfo } from '../../shared/auth';
import { adminGuard } from './admin-guard';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Registers routes under /api/admin behind the admin guard: every route registered this
     * way answers 401 without a session, 403 to a non-admin, and 403 to a write from another
     * origin, before its handler runs.
     */
    registerAdminRoutes(routes: FastifyPluginAsync): void;
  }
  interface FastifyRequest {
    /** Set by the admin guard for requests inside the admin scope. */
    admin?: { email: string };
  }
}

export const ADMIN_PREFIX = '/api/admin';

const sessionRoutes: FastifyPluginAsync = async (scope) => {
  scope.get('/session', async (request): Promise<AdminSessionInfo> => ({
    email: request.admin!.email,
  }));
};

/** The `/api/admin` scope: decorates `app.registerAdminRoutes` and serves GET /session. */
export const adminPlugin = fp(
  async (app) => {
    app.decorateRequest('admin', undefined);
    app.decorate('registerAdminRoutes', (routes: FastifyPluginAsync) => {
      void app.register(
        async (scope) => {
          scope.addHook('onRequest', adminGuard(app));
          await scope.register(routes);
        },
        { prefix: ADMIN_PREFIX },
      );
    });
    app.registerAdminRoutes(sessionRoutes);
  },
  { name: 'admin', dependencies: ['auth'] },
);
