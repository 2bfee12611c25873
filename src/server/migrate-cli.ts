import { loadConfig } from './config/load-config';
import { importPGliteIfPresent } from './backup/import-pglite';
import { databaseOptions, openDatabase } from './db/database';
import { migrate } from './db/migrate';
import { describeStartupError } from './startup-errors';

let config;
try {
  config = loadConfig();
  const database = await openDatabase(databaseOptions(config, importPGliteIfPresent));
  try {
    const applied = await migrate(database.db);
    console.log(
      applied.length > 0
        ? `Applied ${applied.length} migration(s) to ${database.label}: ${applied.join(', ')}`
        : `${database.label} is up to date.`,
    );
  } finally {
    await database.close();
  }
} catch (error) {
  console.error(describeStartupError(error, config).replace('Cannot start:', 'Cannot migrate:'));
  process.exit(1);
}
