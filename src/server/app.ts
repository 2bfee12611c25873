import Fastify, { type FastifyInstance } from 'fastify';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Config } from './config/load-config';
import type { AppDatabase } from './db/database';
import { healthRoutes } from './health/health-routes';
import { errorHandling } from './http/errors';
import { rateLimits } from './http/rate-limit';
import { securityHeaders } from './http/security-headers';
import { notFound, staticSite } from './web/static-site';

export type AppOptions = {
  config: Config;
  database: AppDatabase;
  /** The built SPA (dist/client); omitted, the app serves only its API. */
  clientDir?: string;
};

const REQUEST_ID = /^[\w.-]{1,64}$/;

/** Builds the whole HTTP app without listening: the server and the tests share it. */
export async function buildApp({
  config,
  database,
  clientDir,
}: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: { level: config.logLevel },
    trustProxy: trustProxySetting(config.trustProxy),
    // Behind a load balancer, keep its request id so one request can be followed end to end.
    genReqId: (request: IncomingMessage) => {
      const incoming = request.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    },
  });
  app.decorate('config', config);
  app.decorate('database', database);
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

  await securityHeaders(app);
  await rateLimits(app);
  errorHandling(app);

  await app.register(healthRoutes);
  if (clientDir) await app.register(staticSite, { clientDir });
  notFound(app);

  return app;
}

/** A hop count trusts that many proxies in front of the app (X-Forwarded-For). */
function trustProxySetting(value: Config['trustProxy']) {
  if (typeof value === 'number') return (_address: string, hop: number) => hop < value;
  return value ?? false;
}
