import { formatAmount } from '../../lib/format-amount';
import { formatCount, formatShare, shareOf, type InsightsTotals } from './insights-summary';

/** The range's totals and its conversion rate (purchases per visitor), as figures. */
export function InsightsTotalsList({
  totals,
  currency,
}: {
  totals: InsightsTotals;
  currency: string;
}) {
  const figures = [
    ['Visitors', formatCount(totals.visitors)],
    ['Page views', formatCount(totals.pageviews)],
    ['Purchases', formatCount(totals.purchases)],
    ['Revenue', formatAmount(totals.revenue, currency)],
    ['Conversion rate', formatShare(shareOf(totals.purchases, totals.visitors))],
  ] as const;
  return (
    <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5">
      {figures.map(([label, value]) => (
        <div
          key={label}
          className="rounded-2xl border border-sand-200 bg-white px-4 py-3 shadow-sm last:col-span-2 sm:last:col-span-1"
        >
          <dt className="text-sm text-ink-muted">{label}</dt>
          <dd className="mt-1 text-2xl font-semibold text-sage-800 tabular-nums">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
