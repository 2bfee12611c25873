/**
 * The app as `npm start` runs it, plus routes that exist only here so the benchmark can
 * compare against floors inside one run (the home HTML with every script removed, and the
 * three SQL statements of a form submission without anything around them) and fill a table
 * for the admin list measurements.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../src/server/config/load-config';
import { startServer } from '../src/server/server';
import { bareSubmitRoute } from './bare-submit-route';
import { fillTableRoute } from './fill-table-route';
import { stripScripts } from './lib/floor';

const root = fileURLToPath(new URL('..', import.meta.url));
const clientDir = path.join(root, 'dist/client');

const floorHtml = stripScripts(await readFile(path.join(clientDir, 'index.html'), 'utf8'));
const config = loadConfig();
const server = await startServer(config, {
  clientDir,
  configure(app) {
    app.get('/__bench/floor', async (_request, reply) =>
      reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(floorHtml),
    );
    app.register(bareSubmitRoute);
    app.register(fillTableRoute);
  },
});
console.log(`  Site:      ${server.url}/`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void server.close().then(() => process.exit(0));
  });
}
