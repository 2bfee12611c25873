/**
 * The server as a process of its own (API only, no built client), configured by the
 * environment: for tests that kill it or run several instances. Prints the start banner's
 * Site line, which startBenchServer waits for.
 */
import { loadConfig } from '../../src/server/config/load-config';
import { startServer } from '../../src/server/server';

const server = await startServer(loadConfig());
console.log(`  Site:      ${server.url}/`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void server.close().then(() => process.exit(0));
  });
}
