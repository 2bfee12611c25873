import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createScratchDatabase } from '../lib/postgres';
import { startBenchServer } from '../lib/processes';
import { median, round } from '../lib/stats';

export type StartResults = {
  ready_ms_new: number;
  ready_ms_existing: number;
  rss_mb: number;
  runs_existing: number;
};

const IDLE_MS = 5_000;
const EXISTING_RUNS = 3;

/**
 * Time from `node dist/server/index.js` to /readyz OK, first on a database that does not
 * exist yet (PGlite: a new data dir; PostgreSQL: an empty database), then on the same one
 * again; and the resident memory after the last start has been idle for 5 s.
 */
export async function benchStart(root: string, postgresAdminUrl?: string): Promise<StartResults> {
  const entry = path.join(root, 'dist/server/index.js');
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'soul-reset-bench-start-'));
  const scratch = postgresAdminUrl ? await createScratchDatabase(postgresAdminUrl) : undefined;
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    AUTH_SECRET: 'bench-secret-bench-secret-bench-secret',
    ...(scratch ? { DATABASE_URL: scratch.url } : {}),
  };
  try {
    const first = await startBenchServer([entry], env);
    await first.stop();
    const existing: number[] = [];
    let rssMb = Number.NaN;
    for (let run = 0; run < EXISTING_RUNS; run += 1) {
      const server = await startBenchServer([entry], env);
      existing.push(server.readyMs);
      if (run === EXISTING_RUNS - 1) {
        await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
        rssMb = await server.rssMb();
      }
      await server.stop();
    }
    return {
      ready_ms_new: round(first.readyMs),
      ready_ms_existing: round(median(existing)),
      rss_mb: round(rssMb),
      runs_existing: EXISTING_RUNS,
    };
  } finally {
    await rm(dataDir, { recursive: true, force: true });
    await scratch?.drop();
  }
}
