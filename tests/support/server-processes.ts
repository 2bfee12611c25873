import { rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach } from 'vitest';
import { startBenchServer, type BenchServer } from '../../bench/lib/processes';
import type { DatabaseKind } from '../../src/server/db/database';
import { makeTempDir } from './temp-dir';
import type { TestDatabase } from './test-database';

const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Servers as processes of their own (tests/support/api-server-process.ts), for tests that
 * kill them or run several: each test's processes, sinks and folders go when it ends.
 */
export function useServerProcesses() {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    while (cleanups.length > 0) await cleanups.pop()!();
  });

  return {
    /** Runs after the test, newest first. */
    cleanup(step: () => Promise<void>) {
      cleanups.push(step);
    },
    /** A server process with a test AUTH_SECRET, and `env`. */
    async start(
      env: Record<string, string>,
      user?: { uid: number; gid: number },
    ): Promise<BenchServer> {
      const server = await startBenchServer(
        ['--import', 'tsx', path.join(root, 'tests/support/api-server-process.ts')],
        { NODE_ENV: 'test', AUTH_SECRET: 'process-secret-process-secret-process-secret', ...env },
        { user },
      );
      cleanups.push(() => server.stop());
      return server;
    },
    /**
     * Where the processes keep their data: the test's PostgreSQL database, or a data directory
     * of their own with its embedded server (one process at a time).
     */
    async databaseEnv(kind: DatabaseKind, database: TestDatabase): Promise<Record<string, string>> {
      if (kind === 'postgres') return { DATABASE_URL: database.url! };
      const dataDir = await makeTempDir('soul-reset-crash-');
      cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
      return { DATA_DIR: dataDir };
    },
  };
}
