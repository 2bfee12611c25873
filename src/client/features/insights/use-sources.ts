import { insightSourcesPath, type InsightSources } from '../../../shared/insights/insights-api';
import { api } from '../../lib/api-client';
import { useFetched } from '../../lib/use-fetched';
import type { InsightsRange } from './insights-range';

/** Sources and campaigns of `range`, with the daily figures of `source` (every source without). */
export function useSources(range: InsightsRange, source: string | undefined) {
  const path = insightSourcesPath(range, source);
  return useFetched(path, () => api.get<InsightSources>(path));
}
