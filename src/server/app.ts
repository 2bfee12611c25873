import Fastify, { type FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TableConfig } from '../shared/admin/table-config';
import { ADMIN_PREFIX, adminGuarded, adminSessionRoutes } from './admin/admin-plugin';
import { auditRoutes } from './admin/audit/audit-routes';
import { loadTableConfigurations } from './admin/tables/table-configurations';
import { tableRoutes } from './admin/tables/table-routes';
import { authPlugin } from './auth/auth-plugin';
import { authRoutes } from './auth/auth-routes';
import { backupRoutes } from './backup/backup-routes';
import { broadcastRoutes } from './broadcasts/broadcast-routes';
import { listSenderPlugin } from './broadcasts/list-sender-plugin';
import type { Config } from './config/load-config';
import type { AppDatabase } from './db/database';
import { formRoutes } from './forms/form-routes';
import { healthRoutes } from './health/health-routes';
import { errorHandling } from './http/errors';
import {
  logFormatFor,
  OneLinePerRequest,
  readableLogStream,
  type LogFormat,
} from './http/log-format';
import { rateLimits } from './http/rate-limit';
import { securityHeaders } from './http/security-headers';
import { eventRoutes } from './insights/event-routes';
import { insightsRoutes } from './insights/insights-routes';
import { listAdminRoutes } from './list/list-admin-routes';
import { listRoutes } from './list/list-routes';
import { mailEventsRoutes } from './list/mail-events-routes';
import { sourcesRoutes } from './insights/sources-routes';
import { deliveryRoutes } from './mail/delivery-routes';
import { mailPlugin } from './mail/mail-plugin';
import { mailQueuePlugin } from './mail/mail-queue-plugin';
import { mailJobs } from './mail-jobs';
import { adminOrderRoutes } from './orders/admin-order-routes';
import { orderRoutes } from './orders/order-routes';
import { peopleRoutes } from './people/people-routes';
import { periodicTasks } from './periodic-tasks';
import { periodicPlugin } from './periodic/periodic-plugin';
import { sequenceRoutes } from './sequence/sequence-routes';
import { storePlugin } from './store/store-plugin';
import { fileRoutes } from './store/files/file-routes';
import { storeFileRoutes } from './store/files/upload-route';
import { storePreviewRoute } from './store/store-preview-route';
import { storeAdminRoutes } from './store/store-routes';
import { storeScheduleRoutes } from './store/store-schedule-routes';
import { codeAdminRoutes } from './codes/code-admin-routes';
import { pagesPlugin } from './web/page-renderer';
import { notFound, staticSite } from './web/static-site';

export type AppOptions = {
  config: Config;
  database: AppDatabase;
  /** The built SPA (dist/client); omitted, the app serves only its API. */
  clientDir?: string;
  /** The admin's tables; omitted, those in tableConfigurationsDir. */
  tables?: TableConfig[];
  /** Mail composed and sent in a worker thread of its own (mail/mail-thread.ts). */
  mailThread?: boolean;
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

/** The admin's capabilities without options, served in the guarded /api/admin scope. */
const adminRoutes = [
  adminSessionRoutes,
  deliveryRoutes,
  auditRoutes,
  peopleRoutes,
  backupRoutes,
  insightsRoutes,
  sourcesRoutes,
  adminOrderRoutes,
  storeAdminRoutes,
  storeScheduleRoutes,
  codeAdminRoutes,
  storePreviewRoute,
  storeFileRoutes,
  listAdminRoutes,
  broadcastRoutes,
  sequenceRoutes,
];

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
 * database, mail, sign-in), the app-wide HTTP settings (security headers, rate limiting, error
 * shape), then each capability's routes, the admin's inside the guarded /api/admin scope, and
 * the static site. Services and app-wide settings are fastify-plugin plugins (they decorate or
 * configure the whole app); routes are plain FastifyPluginAsync<Options> plugins.
 */
export const app = fp<AppOptions>(
  async (instance, { config, database, clientDir, tables, mailThread = false }) => {
    instance.decorate('config', config);
    instance.decorate('database', database);
    instance.decorate('lifecycle', { draining: false });
    instance.addHook('onRequest', async (request, reply) => {
      reply.header('x-request-id', request.id);
    });
    // A stopping instance serves every request as before (only /readyz tells the balancer it is
    // stopping) and closes each connection after its answer, so neither a balancer nor a browser
    // reuses a keep-alive connection that is about to go away.
    instance.addHook('onSend', async (_request, reply) => {
      if (instance.lifecycle.draining) reply.header('connection', 'close');
    });

    await instance.register(mailPlugin, { thread: mailThread });
    await instance.register(mailQueuePlugin, { jobs: mailJobs });
    await instance.register(listSenderPlugin);
    await instance.register(periodicPlugin, { tasks: periodicTasks });
    await instance.register(storePlugin);
    await instance.register(pagesPlugin, { clientDir });

    await instance.register(authPlugin);

    await instance.register(securityHeaders);
    await instance.register(rateLimits);
    await instance.register(errorHandling);

    await instance.register(healthRoutes);
    await instance.register(authRoutes);
    await instance.register(formRoutes);
    await instance.register(listRoutes);
    // The mail provider's signed bounce and complaint events: only with their secret.
    if (config.mailWebhookSecret) {
      await instance.register(mailEventsRoutes, { secret: config.mailWebhookSecret });
    }
    await instance.register(eventRoutes);
    await instance.register(fileRoutes);
    const product = bundleFile(config, clientDir);
    // The webhook, download links and the thank-you page's confirmation: verified purchases only.
    if (config.stripe) {
      await instance.register(orderRoutes, { stripe: config.stripe, bundleFile: product });
    }
    const adminTables = tables ?? (await loadTableConfigurations(tableConfigurationsDir));
    await instance.register(
      async (admin) => {
        await admin.register(adminGuarded);
        await admin.register(tableRoutes, { tables: adminTables });
        for (const routes of adminRoutes) await admin.register(routes);
      },
      { prefix: ADMIN_PREFIX },
    );
    if (clientDir) {
      // With verified purchases the product leaves only through download links.
      await instance.register(staticSite, {
        clientDir,
        privateFile: config.stripe ? product : undefined,
      });
    }
    await instance.register(notFound);
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
    // A request that reaches a stopping instance on a connection opened before it stopped
    // listening is served, not answered 503: a balancer does not pass a POST that got an
    // answer on to another instance, so the visitor would see the 503.
    return503OnClosing: false,
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
