import { rm } from 'node:fs/promises';
import path from 'node:path';
import { makeTempDir } from '../../tests/support/temp-dir';
import { createScratchDatabase } from '../lib/postgres';
import { startBenchServer, type BenchServer } from '../lib/processes';
import { sizes } from '../lib/sizes';
import { median, round } from '../lib/stats';

export type StartResults = {
  ready_ms_new: number;
  ready_ms_existing: number;
  /** Ready again after the app was killed with SIGKILL while visitors submitted. */
  ready_ms_after_kill: number;
  rss_mb: number;
  runs_existing: number;
};

/** Idle before the memory is read, starts on an existing database, submissions before the kill. */
const SIZES = {
  full: { idleMs: 5_000, existingRuns: 3, writeMs: 2_000 },
  quick: { idleMs: 1_000, existingRuns: 1, writeMs: 500 },
};

/**
 * Time from `node dist/server/index.js` (of `serverRoot`) to /readyz OK, first on a database
 * that does not exist yet (a new data dir; PostgreSQL: an empty database), then on the same
 * one again, then after a kill -9 under submissions; and the resident memory after a start
 * has been idle for 5 s.
 */
export async function benchStart(
  root: string,
  postgresAdminUrl?: string,
  serverRoot = root,
): Promise<StartResults> {
  const { idleMs, existingRuns, writeMs } = sizes(SIZES);
  const entry = path.join(serverRoot, 'dist/server/index.js');
  const dataDir = await makeTempDir('soul-reset-bench-start-');
  const scratch = postgresAdminUrl ? await createScratchDatabase(postgresAdminUrl) : undefined;
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    AUTH_SECRET: 'bench-secret-bench-secret-bench-secret',
    FORM_RATE_LIMIT: '1000000',
    ...(scratch ? { DATABASE_URL: scratch.url } : {}),
  };
  try {
    const first = await startBenchServer([entry], env);
    await first.stop();
    const existing: number[] = [];
    let rssMb = Number.NaN;
    for (let run = 0; run < existingRuns; run += 1) {
      const server = await startBenchServer([entry], env);
      existing.push(server.readyMs);
      if (run === existingRuns - 1) {
        await new Promise((resolve) => setTimeout(resolve, idleMs));
        rssMb = await server.rssMb();
        await killUnderWrites(server, writeMs);
      }
      await server.stop();
    }
    const afterKill = await startBenchServer([entry], env);
    await afterKill.stop();
    return {
      ready_ms_new: round(first.readyMs),
      ready_ms_existing: round(median(existing)),
      ready_ms_after_kill: round(afterKill.readyMs),
      rss_mb: round(rssMb),
      runs_existing: existingRuns,
    };
  } finally {
    await rm(dataDir, { recursive: true, force: true });
    await scratch?.drop();
  }
}

/** Eight loops of contact submissions for a while, then SIGKILL in the middle of them. */
async function killUnderWrites(server: BenchServer, writeMs: number) {
  let sequence = 0;
  let writing = true;
  const loops = Array.from({ length: 8 }, async () => {
    while (writing) {
      await fetch(`${server.url}/api/forms/contact`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          name: 'Start Bench',
          email: `start-${process.pid}-${sequence++}@example.com`,
          message: 'Written while the app is killed.',
        }),
      }).catch(() => {});
    }
  });
  await new Promise((resolve) => setTimeout(resolve, writeMs));
  server.child.kill('SIGKILL');
  writing = false;
  await Promise.all(loops);
}
