/**
 * The server as a process of its own (API only, no built client), configured by the
 * environment: for tests that kill it or run several instances. Prints the start banner's
 * Site line, which startBenchServer waits for.
 */
import { loadConfig } from '../../src/server/config/load-config';
import { startServer } from '../../src/server/server';
import { stopOnSignals } from '../../src/server/stop-signals';

const config = loadConfig();
const server = await startServer(config);
console.log(`  Site:      ${server.url}/`);

// The same stop as src/server/index.ts: drain for DRAIN_SECONDS, close, exit 0.
stopOnSignals(server, { drainMs: config.drainMs });
