import {
  funnelSteps,
  type FunnelStepName,
  type Insights,
} from '../../../shared/insights/insights-api';

export type InsightsTotals = {
  visitors: number;
  pageviews: number;
  purchases: number;
  /** In the currency's minor unit. */
  revenue: number;
};

/** The range's totals: the sums of its days (a visitor is one browser on one day). */
export function totalsOf(days: Insights['days']): InsightsTotals {
  return days.reduce(
    (sum, day) => ({
      visitors: sum.visitors + day.visitors,
      pageviews: sum.pageviews + day.pageviews,
      purchases: sum.purchases + day.purchases,
      revenue: sum.revenue + day.revenue,
    }),
    { visitors: 0, pageviews: 0, purchases: 0, revenue: 0 },
  );
}

/** `part` as a share of `whole`; null when there is no whole to divide by. */
export function shareOf(part: number, whole: number): number | null {
  return whole > 0 ? part / whole : null;
}

const percent = new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 1 });

/** A share as a percentage, "—" when there is none. */
export function formatShare(share: number | null): string {
  return share === null ? '—' : percent.format(share);
}

export function formatCount(count: number): string {
  return count.toLocaleString();
}

export const funnelStepLabels: Record<FunnelStepName, string> = {
  page_view: 'Page view',
  popup_shown: 'Popup shown',
  guide_requested: 'Guide requested',
  checkout_click: 'Checkout clicked',
  purchase: 'Purchase',
};

export type FunnelRow = {
  step: FunnelStepName;
  label: string;
  visitors: number;
  /** This step's visitors as a share of the step before; null for the first step or after 0. */
  fromPrevious: number | null;
};

/** The funnel in its fixed order (a step the answer leaves out counts 0). */
export function funnelRows(funnel: Insights['funnel']): FunnelRow[] {
  const counts = new Map(funnel.map(({ step, visitors }) => [step, visitors]));
  return funnelSteps.map((step, index) => {
    const visitors = counts.get(step) ?? 0;
    const previous = index === 0 ? null : (counts.get(funnelSteps[index - 1]!) ?? 0);
    return {
      step,
      label: funnelStepLabels[step],
      visitors,
      fromPrevious: previous === null ? null : shareOf(visitors, previous),
    };
  });
}

/**
 * Whether nothing at all was counted in the range: no page view, and no visitor at any step of
 * the funnel (which holds the range's visitors and purchases).
 */
export function isEmpty(insights: Insights): boolean {
  return (
    insights.days.every((day) => day.pageviews === 0) &&
    insights.funnel.every((step) => step.visitors === 0)
  );
}
