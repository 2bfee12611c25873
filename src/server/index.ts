import { fileURLToPath } from 'node:url';
import { startBanner } from './banner';
import { loadConfig } from './config/load-config';
import { importPGliteIfPresent } from './backup/import-pglite';
import { databaseOptions, openDatabase } from './db/database';
import { describeStartupError } from './startup-errors';
import { stopOnSignals } from './stop-signals';

// Both from src/server (development) and from dist/server (the bundle) this is dist/client.
const clientDir = fileURLToPath(new URL('../../dist/client', import.meta.url));

async function main() {
  let config;
  try {
    config = loadConfig();
    // The database starts while the app's modules load (a separate chunk of the bundle).
    const database = openDatabase(databaseOptions(config, importPGliteIfPresent));
    // Its failure (say, the data directory in use) is reported below once startServer awaits
    // it; until then it must not count as an unhandled rejection, which would end the process.
    database.catch(() => undefined);
    const { startServer } = await import('./server').catch(async (error: unknown) => {
      await (await database.catch(() => undefined))?.close();
      throw error;
    });
    const server = await startServer(config, { clientDir, database });
    console.log(startBanner({ url: server.url, config, databaseLabel: server.database.label }));

    stopOnSignals(server, { drainMs: config.drainMs });
  } catch (error) {
    console.error(describeStartupError(error, config));
    process.exit(1);
  }
}

await main();
