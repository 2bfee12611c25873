import path from 'node:path';
import { startBenchServer, type BenchServer } from '../../bench/lib/processes';
import { freePort } from '../../tests/support/free-port';

export type AppProcess = BenchServer & {
  /** SIGKILL, as a crash or the OOM killer would: no shutdown hooks run. */
  kill9(): Promise<void>;
};

/**
 * The built server (`node dist/server/index.js`) in production mode on a free port, with
 * only `env` for configuration; resolves once /readyz answers 200.
 */
export async function startApp(root: string, env: Record<string, string>): Promise<AppProcess> {
  const port = await freePort();
  const server = await startBenchServer([path.join(root, 'dist/server/index.js')], {
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    AUTH_SECRET: 'harden-secret-harden-secret-harden-secret',
    ...env,
  });
  return {
    ...server,
    kill9: async () => {
      server.child.kill('SIGKILL');
      await server.stop();
    },
  };
}
