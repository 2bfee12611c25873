import type { FastifyInstance } from 'fastify';
import type { TableConfig } from '../shared/admin/table-config';
import { checkConfiguredColumns } from './admin/tables/check-configured-columns';
import { loadTableConfigurations } from './admin/tables/table-configurations';
import { buildApp, tableConfigurationsDir } from './app';
import { ensureAuthSecret } from './config/auth-secret';
import type { Config } from './config/load-config';
import { importPGliteIfPresent } from './backup/import-pglite';
import { databaseOptions, openDatabase, type AppDatabase } from './db/database';
import { migrate } from './db/migrate';
import { IN_FLIGHT_MS } from './in-flight';

export type RunningServer = {
  app: FastifyInstance;
  database: AppDatabase;
  /** Where it listens, with the port actually bound (PORT=0 picks a free one). */
  url: string;
  /**
   * Stops for good: /readyz answers 503 and every answer carries `Connection: close` at once;
   * it keeps serving for `drainMs` (the balancer notices and sends nothing new), then closes.
   */
  drain(drainMs: number): Promise<void>;
  /**
   * Stops accepting, lets in-flight requests finish (cut after IN_FLIGHT_MS), stops the mail
   * worker (its unsent claims handed back) and the periodic work, then closes the database.
   */
  close(): Promise<void>;
};

export async function startServer(
  config: Config,
  options: {
    clientDir?: string;
    tables?: TableConfig[];
    configure?: (app: FastifyInstance) => void;
    /** The configured database, when the caller has begun opening it already. */
    database?: Promise<AppDatabase>;
  } = {},
): Promise<RunningServer> {
  // The database starts (the embedded one takes a moment) while the rest is read.
  const [opened, prepared] = await Promise.allSettled([
    options.database ?? openDatabase(databaseOptions(config, importPGliteIfPresent)),
    Promise.all([
      ensureAuthSecret(config),
      options.tables ?? loadTableConfigurations(tableConfigurationsDir),
    ]),
  ]);
  if (opened.status === 'rejected') throw opened.reason;
  const database = opened.value;
  if (prepared.status === 'rejected') {
    await database.close();
    throw prepared.reason;
  }
  const [authSecret, tables] = prepared.value;
  config = { ...config, authSecret };
  try {
    await migrate(database.db);
    await checkConfiguredColumns(database.db, tables);
    const app = await buildApp({
      config,
      database,
      clientDir: options.clientDir,
      tables,
      mailThread: true,
    });
    let closing: Promise<void> | undefined;
    options.configure?.(app);
    await app.listen({ port: config.port, host: config.host });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    const host = config.host.includes(':') ? `[${config.host}]` : config.host;
    return {
      app,
      database,
      url: `http://${host}:${port}`,
      async drain(drainMs) {
        app.lifecycle.draining = true;
        if (drainMs > 0) await new Promise((resolve) => setTimeout(resolve, drainMs));
        await close();
      },
      close,
    };

    function close() {
      return (closing ??= (async () => {
        // A keep-alive connection that finishes its request during shutdown would otherwise
        // stay open until it times out, holding the shutdown up.
        app.lifecycle.draining = true;
        // Fastify closes idle connections at once and waits for the requests in flight; one
        // that runs on past the bound is cut, so a stuck client cannot hold the stop forever.
        const cut = setTimeout(() => app.server.closeAllConnections(), IN_FLIGHT_MS);
        try {
          await app.close();
        } finally {
          clearTimeout(cut);
          // Last: the mail worker and the periodic work used it while stopping.
          await database.close();
        }
      })());
    }
  } catch (error) {
    await database.close();
    throw error;
  }
}
