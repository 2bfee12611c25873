import { IN_FLIGHT_MS } from './in-flight';
// Types only from ./server: src/server/index.ts loads the server as a chunk of its own.
import type { RunningServer } from './server';

export { IN_FLIGHT_MS };

/**
 * Beyond the drain and the in-flight bound: the mail worker's sends in flight (at most
 * MAIL_TIMEOUT_MS, 10 s) and the database's own stop. Past it the process exits anyway.
 */
export const STOP_MARGIN_MS = 15_000;

/** The longest a stop may take, so a service manager's stop timeout can be set above it. */
export function stopDeadlineMs(drainMs: number): number {
  return drainMs + IN_FLIGHT_MS + STOP_MARGIN_MS;
}

/**
 * SIGTERM or SIGINT drains the server (DRAIN_SECONDS of serving with /readyz 503, then close)
 * and exits 0 once everything is closed, 1 if closing failed or outran its deadline. A second
 * signal exits at once (1): whoever sends it has stopped waiting.
 */
export function stopOnSignals(
  server: Pick<RunningServer, 'app' | 'drain'>,
  options: { drainMs: number; exit?: (code: number) => void },
): () => void {
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const log = server.app.log;
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      log.warn(`${signal} received again: exiting now`);
      exit(1);
      return;
    }
    stopping = true;
    log.info(
      `${signal} received: draining for ${options.drainMs / 1000} s (readyz 503), then finishing in-flight requests and closing`,
    );
    setTimeout(() => {
      log.error('Shutdown took too long: exiting');
      exit(1);
    }, stopDeadlineMs(options.drainMs)).unref();
    server.drain(options.drainMs).then(
      () => {
        log.info('stopped cleanly');
        exit(0);
      },
      (error: unknown) => {
        log.error({ err: error }, 'Error while shutting down');
        exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  return () => {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  };
}
