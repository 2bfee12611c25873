import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { existsSync } from 'node:fs';
import path from 'node:path';

const HASHED_ASSET = /\/assets\//;

/**
 * Serves the built SPA: hashed assets cached for a year, everything else (index.html,
 * favicon, robots.txt) revalidated on every visit so a deploy shows at once.
 */
export async function staticSite(app: FastifyInstance, options: { clientDir: string }) {
  if (!existsSync(path.join(options.clientDir, 'index.html'))) {
    app.log.warn(`No built site in ${options.clientDir}: run npm run build (API only for now).`);
    return;
  }
  await app.register(fastifyStatic, {
    root: options.clientDir,
    wildcard: false,
    preCompressed: true,
    cacheControl: false,
    setHeaders(res, filePath) {
      res.setHeader(
        'cache-control',
        HASHED_ASSET.test(filePath) ? 'public, max-age=31536000, immutable' : 'no-cache',
      );
    },
  });
}

/**
 * Routes live in the hash (SPEC.md §2), so a page address typed without it (/admin) is sent
 * to the same route inside the app; anything else is a JSON 404.
 */
export function notFound(app: FastifyInstance) {
  app.setNotFoundHandler(
    { preHandler: app.rateLimit({ max: 120, timeWindow: '1 minute' }) },
    (request: FastifyRequest, reply: FastifyReply) => {
      const { pathname } = new URL(request.url, 'http://localhost');
      const isPage =
        (request.method === 'GET' || request.method === 'HEAD') &&
        !pathname.startsWith('/api/') &&
        !path.extname(pathname) &&
        /^[\w/-]*$/.test(pathname) &&
        (request.headers.accept ?? '').includes('text/html');
      if (isPage) return reply.redirect(`/#${pathname.replace(/\/+$/, '') || '/'}`, 302);
      return reply.code(404).send({
        error: 'Not Found',
        message: `There is nothing at ${request.method} ${pathname}.`,
      });
    },
  );
}
