import { fileURLToPath } from 'node:url';
import { startBanner } from './banner';
import { loadConfig } from './config/load-config';
import { databaseOptions, openDatabase } from './db/database';
import { describeStartupError } from './startup-errors';

// Both from src/server (development) and from dist/server (the bundle) this is dist/client.
const clientDir = fileURLToPath(new URL('../../dist/client', import.meta.url));
const SHUTDOWN_GRACE_MS = 10_000;

async function main() {
  let config;
  try {
    config = loadConfig();
    // The database starts while the app's modules load (a separate chunk of the bundle).
    const database = openDatabase(databaseOptions(config));
    // Its failure (say, the data directory in use) is reported below once startServer awaits
    // it; until then it must not count as an unhandled rejection, which would end the process.
    database.catch(() => undefined);
    const { startServer } = await import('./server').catch(async (error: unknown) => {
      await (await database.catch(() => undefined))?.close();
      throw error;
    });
    const server = await startServer(config, { clientDir, database });
    console.log(startBanner({ url: server.url, config, databaseLabel: server.database.label }));

    let stopping = false;
    const stop = (signal: NodeJS.Signals) => {
      if (stopping) {
        console.error(`Received ${signal} again: exiting now.`);
        process.exit(1);
      }
      stopping = true;
      server.app.log.info(`${signal} received: finishing in-flight requests, then closing`);
      setTimeout(() => {
        console.error('Shutdown took too long: exiting.');
        process.exit(1);
      }, SHUTDOWN_GRACE_MS).unref();
      server.close().then(
        () => {
          server.app.log.info('stopped cleanly');
          process.exit(0);
        },
        (error: unknown) => {
          console.error('Error while shutting down:', error);
          process.exit(1);
        },
      );
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  } catch (error) {
    console.error(describeStartupError(error, config));
    process.exit(1);
  }
}

await main();
