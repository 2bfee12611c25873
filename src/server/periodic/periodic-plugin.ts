import fp from 'fastify-plugin';
import { insightsRollup } from '../insights/insights-rollup';
import { housekeeping } from './housekeeping';
import { startPeriodicWork } from './periodic-work';

const EVERY_MS = 10 * 60 * 1000;

/** Housekeeping and the insights roll-up on a timer in every instance; an advisory lock lets one instance do each run. */
export const periodicPlugin = fp(
  async (app) => {
    let work: { stop(): Promise<void> } | undefined;
    app.addHook('onReady', async () => {
      work = startPeriodicWork(app.database.db, [housekeeping, insightsRollup], EVERY_MS, app.log);
    });
    app.addHook('preClose', async () => work?.stop());
  },
  { name: 'periodic-work' },
);
