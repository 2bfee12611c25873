import fp from 'fastify-plugin';
import { insightsRollup } from '../insights/insights-rollup';
import { unusedFilesCleanup } from '../store/files/unused-files';
import { housekeeping } from './housekeeping';
import { startPeriodicWork } from './periodic-work';

const EVERY_MS = 10 * 60 * 1000;

/** In lock-key order: a task keeps its place so that every instance locks it by one key. */
export const periodicTasks = [housekeeping, insightsRollup, unusedFilesCleanup];

/**
 * Housekeeping, the insights roll-up and the removal of unused uploads on a timer in every
 * instance; an advisory lock lets one instance do each run.
 */
export const periodicPlugin = fp(
  async (app) => {
    let work: { stop(): Promise<void> } | undefined;
    app.addHook('onReady', async () => {
      work = startPeriodicWork(app.database.db, periodicTasks, EVERY_MS, app.log);
    });
    app.addHook('preClose', async () => work?.stop());
  },
  { name: 'periodic-work' },
);
