import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isAdminEmail } from '../auth/create-auth';
import { HttpError } from '../http/errors';
import { requireSameOrigin } from '../http/same-origin';

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Runs before every admin route: a valid session whose email is on ADMIN_EMAILS now (so
 * removing an address revokes access at once), and for writes an Origin of PUBLIC_URL. No
 * answer of the admin scope, refusals included, is stored by a cache.
 */
export function adminGuard(app: FastifyInstance) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    reply.header('cache-control', 'no-store');
    const session = await app.sessionOf(request);
    if (!session) throw new HttpError(401, 'Sign in to continue.');
    if (!isAdminEmail(app.config, session.email)) {
      throw new HttpError(403, 'This account has no access to the admin area.');
    }
    if (STATE_CHANGING.has(request.method)) requireSameOrigin(request, app.config.publicUrl);
    request.admin = { email: session.email };
  };
}
