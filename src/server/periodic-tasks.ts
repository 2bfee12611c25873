import { insightsRollup } from './insights/insights-rollup';
import { housekeeping } from './periodic/housekeeping';
import type { PeriodicTask } from './periodic/periodic-work';
import { sequenceSteps } from './sequence/sequence-enqueue';
import { unusedFilesCleanup } from './store/files/unused-files';

/**
 * The timed tasks every instance runs (periodic/ runs them; each capability owns its own), in
 * lock-key order: a task keeps its place so that every instance locks it by one key, so a new
 * task goes at the end.
 */
export const periodicTasks: PeriodicTask[] = [
  housekeeping,
  insightsRollup,
  unusedFilesCleanup,
  sequenceSteps,
];
