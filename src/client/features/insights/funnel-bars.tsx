import type { Insights } from '../../../shared/insights/insights-api';
import { formatCount, formatShare, funnelRows } from './insights-summary';

/**
 * The funnel from a page view to a purchase as horizontal bars: each step's visitors, and the
 * share of the step before that reached it ("—" when the step before had none).
 */
export function FunnelBars({ funnel }: { funnel: Insights['funnel'] }) {
  const rows = funnelRows(funnel);
  const widest = Math.max(1, ...rows.map((row) => row.visitors));
  return (
    <ol className="space-y-4">
      {rows.map((row, index) => (
        <li key={row.step} data-step={row.step}>
          <div className="flex items-baseline justify-between gap-3 text-sm">
            <span className="font-medium text-ink">{row.label}</span>
            <span className="font-semibold text-sage-800 tabular-nums" data-testid="funnel-count">
              {formatCount(row.visitors)}
            </span>
          </div>
          <div className="mt-1.5 h-3 overflow-hidden rounded-full bg-sand-100" aria-hidden="true">
            <div
              className="h-full rounded-full bg-sage-600"
              style={{ width: `${(100 * row.visitors) / widest}%` }}
            />
          </div>
          {index > 0 ? (
            <p className="mt-1 text-xs text-ink-muted">
              <span className="tabular-nums" data-testid="funnel-share">
                {formatShare(row.fromPrevious)}
              </span>{' '}
              of the step before
            </p>
          ) : null}
        </li>
      ))}
    </ol>
  );
}
