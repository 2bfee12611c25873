import fp from 'fastify-plugin';
import { startPeriodicWork, type PeriodicTask } from './periodic-work';

const EVERY_MS = 10 * 60 * 1000;

/**
 * Runs `tasks` (src/server/periodic-tasks.ts: housekeeping, the insights roll-up, the removal
 * of unused uploads) on a timer in every instance; an advisory lock lets one instance do each
 * run.
 */
export const periodicPlugin = fp<{ tasks: PeriodicTask[] }>(
  async (app, { tasks }) => {
    let work: { stop(): Promise<void> } | undefined;
    app.addHook('onReady', async () => {
      work = startPeriodicWork(app.database.db, tasks, EVERY_MS, app.log);
    });
    app.addHook('preClose', async () => work?.stop());
  },
  { name: 'periodic-work' },
);
