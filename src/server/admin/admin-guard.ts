import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isAdminEmail } from '../auth/create-auth';

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function refuse(reply: FastifyReply, status: 401 | 403, message: string) {
  return reply
    .code(status)
    .header('cache-control', 'no-store')
    .send({ error: status === 401 ? 'Unauthorized' : 'Forbidden', message });
}

/**
 * Runs before every admin route: a valid session whose email is on ADMIN_EMAILS now (so
 * removing an address revokes access at once), and for writes an Origin of PUBLIC_URL.
 */
export function adminGuard(app: FastifyInstance) {
  const trustedOrigin = new URL(app.config.publicUrl).origin;
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const session = await app.sessionOf(request);
    if (!session) return refuse(reply, 401, 'Sign in to continue.');
    if (!isAdminEmail(app.config, session.email)) {
      return refuse(reply, 403, 'This account has no access to the admin area.');
    }
    if (STATE_CHANGING.has(request.method) && request.headers.origin !== trustedOrigin) {
      return refuse(reply, 403, 'This request must come from the site itself.');
    }
    request.admin = { email: session.email };
    reply.header('cache-control', 'no-store');
  };
}
