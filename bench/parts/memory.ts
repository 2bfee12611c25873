import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { processTree, pssMb } from '../lib/process-memory';
import { startBenchServer } from '../lib/processes';
import { sizes } from '../lib/sizes';
import { round } from '../lib/stats';
import { makeTempDir } from '../../tests/support/temp-dir';

export type MemoryResults = {
  /** The app and every process of its database, PSS summed, sampled every 20 ms from spawn. */
  peak_first_start_pss_mb: number;
  /** The same after 10 s idle on that data directory. */
  idle_pss_mb: number;
  /**
   * And after 30 s: by then V8's memory reducer has given back the young generation the start
   * grew (32 MB of the app's heap shrinks to 1 MB about 20 s after the last work).
   */
  idle_30s_pss_mb: number;
  /** The Node process alone: its own peak resident memory (VmHWM) and its PSS when idle. */
  app_peak_rss_mb: number;
  app_idle_pss_mb: number;
  processes_idle: number;
};

/** When the idle memory is read, after the start. */
const SIZES = {
  full: { idleMs: 10_000, longIdleMs: 30_000 },
  quick: { idleMs: 1_000, longIdleMs: 2_000 },
};
const SAMPLE_MS = 20;

/**
 * `node dist/server/index.js` of `serverRoot` on a new data directory: memory of the whole
 * process tree (the app and the database it runs, shared pages counted once) during the first
 * start, and after 10 s idle.
 */
export async function benchMemory(root: string, serverRoot = root): Promise<MemoryResults> {
  const { idleMs, longIdleMs } = sizes(SIZES);
  const dataDir = await makeTempDir('soul-reset-bench-memory-');
  let peak = 0;
  let sampling = true;
  let sampler: Promise<void> | undefined;
  try {
    const server = await startBenchServer(
      [path.join(serverRoot, 'dist/server/index.js')],
      { DATA_DIR: dataDir, AUTH_SECRET: 'bench-secret-bench-secret-bench-secret' },
      {
        onSpawn: (child) => {
          sampler = (async () => {
            while (sampling) {
              peak = Math.max(peak, await pssMb(await processTree(child.pid!)));
              await new Promise((resolve) => setTimeout(resolve, SAMPLE_MS));
            }
          })();
        },
      },
    );
    sampling = false;
    await sampler;
    try {
      await new Promise((resolve) => setTimeout(resolve, idleMs));
      const tree = await processTree(server.child.pid!);
      const status = await readFile(`/proc/${server.child.pid}/status`, 'utf8');
      const idle = {
        idle_pss_mb: round(await pssMb(tree)),
        app_peak_rss_mb: round(Number(/^VmHWM:\s+(\d+)/m.exec(status)?.[1]) / 1024),
        app_idle_pss_mb: round(await pssMb([server.child.pid!])),
        processes_idle: tree.length,
      };
      await new Promise((resolve) => setTimeout(resolve, longIdleMs - idleMs));
      return {
        peak_first_start_pss_mb: round(peak),
        ...idle,
        idle_30s_pss_mb: round(await pssMb(await processTree(server.child.pid!))),
      };
    } finally {
      await server.stop();
    }
  } finally {
    sampling = false;
    await sampler;
    await rm(dataDir, { recursive: true, force: true });
  }
}
