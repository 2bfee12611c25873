/**
 * The app as `npm start` runs it, plus routes that exist only here so the benchmark can
 * compare against a floor inside one run (the three SQL statements of a form submission
 * without anything around them) and fill a table for the admin list measurements. The page's
 * floor has its own server (lib/floor-server.ts); the orders part's routes are in
 * orders-bench-routes.ts, the events part's count in events-bench-route.ts, the insights part's
 * roll-up in insights-bench-route.ts, the admin search's query plans in explain-search-route.ts,
 * the list part's in list-bench-routes.ts.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../src/server/config/load-config';
import { startServer } from '../src/server/server';
import { bareSubmitRoute } from './bare-submit-route';
import { fillTableRoute } from './fill-table-route';
import { listBenchRoutes } from './list-bench-routes';
import { eventsBenchRoute } from './events-bench-route';
import { insightsBenchRoute } from './insights-bench-route';
import { explainSearchRoute } from './explain-search-route';
import { ordersBenchRoutes } from './orders-bench-routes';

const root = fileURLToPath(new URL('..', import.meta.url));
const clientDir = path.join(root, 'dist/client');

const config = loadConfig();
const server = await startServer(config, {
  clientDir,
  configure(app) {
    app.register(bareSubmitRoute);
    app.register(fillTableRoute);
    app.register(ordersBenchRoutes);
    app.register(eventsBenchRoute);
    app.register(insightsBenchRoute);
    app.register(explainSearchRoute);
    app.register(listBenchRoutes);
  },
});
console.log(`  Site:      ${server.url}/`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void server.close().then(() => process.exit(0));
  });
}
