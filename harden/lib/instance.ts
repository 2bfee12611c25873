import path from 'node:path';
import { startBenchServer, type BenchServer } from '../../bench/lib/processes';

/**
 * One app instance behind the balancer: always on the same port, so the balancer's config
 * holds across restarts. Each start is a new process of the built server.
 */
export type Instance = {
  port: number;
  address: string;
  current(): BenchServer | undefined;
  start(): Promise<BenchServer>;
  /** SIGTERM, and the milliseconds until the process exited (drained). */
  terminate(): Promise<number>;
  /** SIGKILL: no shutdown hook runs. */
  kill9(): Promise<void>;
  /** Everything every process of this instance printed. */
  output(): string;
  stop(): Promise<void>;
};

export function instance(root: string, port: number, env: Record<string, string>): Instance {
  let server: BenchServer | undefined;
  let previous = '';
  const exit = async (signal: 'SIGTERM' | 'SIGKILL') => {
    const running = server;
    if (!running) return 0;
    server = undefined;
    const started = performance.now();
    const exited = new Promise<void>((resolve) => {
      if (running.child.exitCode !== null || running.child.signalCode !== null) resolve();
      else running.child.once('close', () => resolve());
    });
    running.child.kill(signal);
    // A drain that never ends is killed after a minute (and reported by its duration).
    const timer = setTimeout(() => running.child.kill('SIGKILL'), 60_000);
    await exited;
    clearTimeout(timer);
    previous += running.output();
    return performance.now() - started;
  };
  return {
    port,
    address: `127.0.0.1:${port}`,
    current: () => server,
    async start() {
      server = await startBenchServer([path.join(root, 'dist/server/index.js')], {
        PORT: String(port),
        HOST: '127.0.0.1',
        ...env,
      });
      return server;
    },
    terminate: () => exit('SIGTERM'),
    kill9: async () => void (await exit('SIGKILL')),
    output: () => previous + (server?.output() ?? ''),
    stop: async () => void (await exit('SIGTERM')),
  };
}
