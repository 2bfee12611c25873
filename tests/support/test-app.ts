import type { FastifyInstance } from 'fastify';
import type { TableConfig } from '../../src/shared/admin/table-config';
import { buildApp, type AppOptions } from '../../src/server/app';
import type { Config } from '../../src/server/config/load-config';
import type { AppDatabase } from '../../src/server/db/database';
import { testConfig } from './test-config';

/** The real app over a test database, ready for `app.inject`; close it after the test. */
export async function buildTestApp(
  database: AppDatabase,
  options: {
    config?: Config;
    clientDir?: string;
    /** The admin's tables; by default the configurations folder's. */
    tables?: TableConfig[];
    configure?: (app: FastifyInstance) => void;
    /** Mail in a worker thread of its own, as the server runs it (default: this thread). */
    mailThread?: boolean;
    /** Where the app's log lines go, and in which format (default: none, LOG_LEVEL silent). */
    log?: AppOptions['log'];
  } = {},
): Promise<FastifyInstance> {
  const config = options.config ?? (await testConfig());
  const app = await buildApp({
    // What server.ts does with ensureAuthSecret, without writing a file.
    config: { ...config, authSecret: config.authSecret ?? 'test-secret-of-at-least-32-characters' },
    database,
    clientDir: options.clientDir,
    tables: options.tables,
    mailThread: options.mailThread,
    log: options.log,
  });
  options.configure?.(app);
  await app.ready();
  return app;
}
