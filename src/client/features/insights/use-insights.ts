import { insightsPath, type Insights } from '../../../shared/insights/insights-api';
import { api, RequestError } from '../../lib/api-client';
import { useFetched } from '../../lib/use-fetched';
import type { InsightsRange } from './insights-range';

/** The server's answer for a range: the insights, or its reason for refusing the range (400). */
export type InsightsAnswer =
  { kind: 'insights'; insights: Insights } | { kind: 'refused'; message: string };

async function loadInsights(range: InsightsRange): Promise<InsightsAnswer> {
  try {
    return { kind: 'insights', insights: await api.get<Insights>(insightsPath(range)) };
  } catch (error) {
    // Asking again cannot help a refused range: it is an answer, not a failure.
    if (error instanceof RequestError && error.status === 400) {
      return { kind: 'refused', message: error.message };
    }
    throw error;
  }
}

/** The insights of `range`, fetched again when it changes or on `reload`. */
export function useInsights(range: InsightsRange) {
  return useFetched(insightsPath(range), () => loadInsights(range));
}
