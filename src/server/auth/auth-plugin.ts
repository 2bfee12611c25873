import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { fromNodeHeaders } from 'better-auth/node';
import { createAuth, type Auth } from './create-auth';

export type SignedIn = { userId: string; email: string; expiresAt: Date };

declare module 'fastify' {
  interface FastifyInstance {
    auth: Auth;
    /** The request's valid session, or null (no cookie, expired, signed out). */
    sessionOf(request: FastifyRequest): Promise<SignedIn | null>;
  }
}

/**
 * Sign-in with emailed codes, the service: decorates `app.auth` and `app.sessionOf` for the
 * routes of /api/auth (auth-routes.ts) and the admin guard.
 */
export const authPlugin = fp(
  async (app) => {
    const auth = createAuth({
      config: app.config,
      db: app.database.db,
      mailer: app.mailer,
      logger: app.log,
    });
    app.decorate('auth', auth);
    app.decorate('sessionOf', async (request: FastifyRequest) => {
      const found = await auth.api.getSession({ headers: fromNodeHeaders(request.headers) });
      if (!found) return null;
      return {
        userId: found.user.id,
        email: found.user.email.toLowerCase(),
        expiresAt: new Date(found.session.expiresAt),
      };
    });
  },
  { name: 'auth', dependencies: ['mail'] },
);
