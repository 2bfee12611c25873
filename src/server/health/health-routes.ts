import type { FastifyInstance } from 'fastify';
import { queueSummary } from '../mail/delivery-log';

const READY_TIMEOUT_MS = 2_000;

/**
 * /healthz: the process answers. /readyz: the database answers and the instance is not stopping
 * (for load balancers), with
 * the mail queue in its details: emails waiting, the oldest one's age, failures in the last day.
 */
export async function healthRoutes(app: FastifyInstance) {
  app.get('/healthz', async () => ({ status: 'ok' }));

  app.get('/readyz', async (request, reply) => {
    // Stopping (SIGTERM): the balancer takes the instance out while it still serves.
    if (app.lifecycle.draining) {
      return reply.code(503).send({ status: 'draining', database: app.database.kind });
    }
    try {
      const mail = await withTimeout(
        app.database.ping().then(() => queueSummary(app.database.db)),
        READY_TIMEOUT_MS,
      );
      return { status: 'ready', database: app.database.kind, mail };
    } catch (error) {
      request.log.warn({ err: error }, 'readiness check failed');
      return reply.code(503).send({ status: 'unavailable', database: app.database.kind });
    }
  });
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
