import type { FastifyRequest } from 'fastify';
import { HttpError } from './errors';

export const NOT_FROM_THE_SITE = 'This request must come from the site itself.';

/**
 * Refuses (403) a request whose Origin is not PUBLIC_URL's. Browsers send Origin with every
 * POST, PUT, PATCH and DELETE, so a write without it, or from another site, is not the site's
 * own page: the check that keeps cookie-bearing writes from other sites out (CSRF).
 */
export function requireSameOrigin(request: FastifyRequest, publicUrl: string): void {
  if (request.headers.origin !== new URL(publicUrl).origin) {
    throw new HttpError(403, NOT_FROM_THE_SITE);
  }
}
