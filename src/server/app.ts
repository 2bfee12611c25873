import Fastify, { type FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TableConfig } from '../shared/admin/table-config';
import { adminPlugin } from './admin/admin-plugin';
import { loadTableConfigurations } from './admin/tables/table-configurations';
import { tableRoutes } from './admin/tables/table-routes';
import { auditRoutes } from './admin/audit/audit-routes';
import { peopleRoutes } from './people/people-routes';
import { authPlugin } from './auth/auth-plugin';
import { backupRoutes } from './backup/backup-routes';
import type { Config } from './config/load-config';
import type { AppDatabase } from './db/database';
import { healthRoutes } from './health/health-routes';
import { formRoutes } from './forms/form-routes';
import { errorHandling } from './http/errors';
import {
  logFormatFor,
  OneLinePerRequest,
  readableLogStream,
  type LogFormat,
} from './http/log-format';
import { rateLimits } from './http/rate-limit';
import { securityHeaders } from './http/security-headers';
import { mailPlugin } from './mail/mail-plugin';
import { deliveryRoutes } from './mail/delivery-routes';
import { mailQueuePlugin } from './mail/mail-queue-plugin';
import { insightsPlugin } from './insights/insights-plugin';
import { ordersPlugin } from './orders/orders-plugin';
import { periodicPlugin } from './periodic/periodic-plugin';
import { notFound, staticSite } from './web/static-site';

export type AppOptions = {
  config: Config;
  database: AppDatabase;
  /** The built SPA (dist/client); omitted, the app serves only its API. */
  clientDir?: string;
  /** The admin's tables; omitted, those in tableConfigurationsDir. */
  tables?: TableConfig[];
  /** How logs are written (default: logFormatFor NODE_ENV and stdout) and where (stdout). */
  log?: { format?: LogFormat; stream?: { write(line: string): unknown } };
};

/**
 * The admin table configurations. This module and the server bundle (dist/server/*.js) sit at
 * the same depth, so this is src/shared/table-configurations from the sources, and from the
 * bundle dist/shared/table-configurations, where scripts/build.mjs copies them.
 */
export const tableConfigurationsDir = fileURLToPath(
  new URL('../shared/table-configurations/', import.meta.url),
);

const SAMPLE_BUNDLE = 'downloads/soul-reset-bundle-sample.pdf';

/**
 * The product file: BUNDLE_FILE, else the bundled sample, in the built site (dist/client) or,
 * for the API alone, in the sources (this module sits beside src/client as dist/server does
 * beside dist/client).
 */
export function bundleFile(config: Config, clientDir: string | undefined): string {
  if (config.product.file) return config.product.file;
  if (clientDir) return path.join(clientDir, SAMPLE_BUNDLE);
  return fileURLToPath(new URL(`../client/public/${SAMPLE_BUNDLE}`, import.meta.url));
}

/**
 * The whole application as one plugin, registered in order: shared services (config,
 * database, mail), security headers, rate limiting, error shape, routes (health, sign-in,
 * admin and its tables), static files.
 */
export const app = fp<AppOptions>(
  async (instance, { config, database, clientDir, tables }) => {
    instance.decorate('config', config);
    instance.decorate('database', database);
    instance.decorate('lifecycle', { draining: false });
    instance.addHook('onRequest', async (request, reply) => {
      reply.header('x-request-id', request.id);
    });
    // A stopping instance closes each connection after its answer, so neither a balancer nor a
    // browser reuses a keep-alive connection that is about to go away.
    instance.addHook('onSend', async (_request, reply) => {
      if (instance.lifecycle.draining) reply.header('connection', 'close');
    });

    await instance.register(mailPlugin);
    await instance.register(mailQueuePlugin);
    await instance.register(periodicPlugin);

    await securityHeaders(instance);
    await rateLimits(instance);
    errorHandling(instance);

    await instance.register(healthRoutes);
    await instance.register(authPlugin);
    await instance.register(adminPlugin);
    instance.registerAdminRoutes(
      tableRoutes(tables ?? (await loadTableConfigurations(tableConfigurationsDir))),
    );
    instance.registerAdminRoutes(deliveryRoutes);
    instance.registerAdminRoutes(auditRoutes);
    instance.registerAdminRoutes(peopleRoutes);
    instance.registerAdminRoutes(backupRoutes);
    await instance.register(formRoutes);
    await instance.register(insightsPlugin);
    const product = bundleFile(config, clientDir);
    await instance.register(ordersPlugin, { bundleFile: product });
    if (clientDir) {
      // With verified purchases the product leaves only through download links.
      await instance.register(staticSite, {
        clientDir,
        privateFile: config.stripe ? product : undefined,
      });
    }
    notFound(instance);
  },
  { name: 'soul-reset-app' },
);

const REQUEST_ID = /^[\w.-]{1,64}$/;

/** A Fastify instance with the app registered, not yet listening: the server and tests share it. */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const format =
    options.log?.format ?? logFormatFor(options.config.env, Boolean(process.stdout.isTTY));
  const stream =
    format === 'readable' ? readableLogStream(options.log?.stream) : options.log?.stream;
  const instance = Fastify({
    logger: { level: options.config.logLevel, ...(stream ? { stream } : {}) },
    // Readable: one line per request instead of Fastify's two.
    ...(format === 'readable' ? { logController: new OneLinePerRequest() } : {}),
    trustProxy: trustProxySetting(options.config.trustProxy),
    // Behind a load balancer, keep its request id so one request can be followed end to end.
    genReqId: (request: IncomingMessage) => {
      const incoming = request.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    },
  });
  await instance.register(app, options);
  return instance;
}

/** A hop count trusts that many proxies in front of the app (X-Forwarded-For). */
function trustProxySetting(value: Config['trustProxy']) {
  if (typeof value === 'number') return (_address: string, hop: number) => hop < value;
  return value ?? false;
}
