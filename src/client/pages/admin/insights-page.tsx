import { useMemo, type ReactNode } from 'react';
import { paths } from '../../../shared/paths';
import { Link, navigate, useLocation } from '../../routing/router';
import { LoadFailed, PanelLoading } from '../../components/load-states';
import { DailyChart, formatDay } from '../../features/insights/daily-chart';
import { FunnelBars } from '../../features/insights/funnel-bars';
import { rangeDays, utcDay } from '../../../shared/utc-days';
import {
  rangeProblem,
  readRange,
  writeRange,
  type InsightsRange,
} from '../../features/insights/insights-range';
import { isEmpty, totalsOf } from '../../features/insights/insights-summary';
import { InsightsTotalsList } from '../../features/insights/insights-totals';
import { RangePicker } from '../../features/insights/range-picker';
import { useInsights } from '../../features/insights/use-insights';
import { SourcesReport } from '../../features/insights/sources-report';

const card = 'rounded-2xl border border-sand-200 bg-white px-4 py-4 shadow-sm sm:px-6';

function Card({ title, children }: { title: string; children: ReactNode }) {
  const headingId = `insights-${title.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <section aria-labelledby={headingId} className={card}>
      <h3 id={headingId} className="mb-4 text-base font-semibold text-sage-800">
        {title}
      </h3>
      {children}
    </section>
  );
}

/** The figures of one valid range, as the server counted them. */
function InsightsReport({ range }: { range: InsightsRange }) {
  const { data, loading, error, reload } = useInsights(range);

  if (error && !loading) {
    return (
      <LoadFailed onRetry={reload} className="rounded-2xl">
        Could not load the insights: {error}
      </LoadFailed>
    );
  }
  if (!data || (loading && (error || data.kind === 'refused'))) {
    return (
      <div className={card}>
        <PanelLoading>Loading insights…</PanelLoading>
      </div>
    );
  }
  if (data.kind === 'refused') {
    return (
      <p
        role="alert"
        className="rounded-2xl border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-800"
      >
        This range cannot be shown: {data.message}
      </p>
    );
  }

  const { insights } = data;
  const days = rangeDays(insights);
  return (
    <div
      aria-busy={loading}
      className={`space-y-6 ${loading ? 'opacity-60 transition-opacity' : ''}`}
    >
      <p className="text-sm text-ink-muted">
        {formatDay(insights.from)} to {formatDay(insights.to)}, {days} {days === 1 ? 'day' : 'days'}
      </p>
      {isEmpty(insights) ? (
        <div role="status" className={`${card} text-center`}>
          <p className="font-medium text-ink">No visits in this range yet</p>
          <p className="mx-auto mt-1 max-w-md text-sm text-ink-muted">
            Visits to the public pages are counted from the day they happen; choose a longer range
            or look again later.
          </p>
        </div>
      ) : null}
      <InsightsTotalsList totals={totalsOf(insights.days)} currency={insights.currency} />
      <div className="grid grid-cols-[minmax(0,1fr)] gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <Card title="Visitors and page views per day">
          <DailyChart days={insights.days} currency={insights.currency} />
        </Card>
        <Card title="From page view to purchase">
          <p className="-mt-2 mb-4 text-sm text-ink-muted">
            Visitors who reached each step; a purchase is an order Stripe confirmed.
          </p>
          <FunnelBars funnel={insights.funnel} />
        </Card>
      </div>
    </div>
  );
}

type InsightsView = 'overview' | 'sources';

/** The page's two views, kept in the address (`?view=sources`) beside the range. */
function ViewTabs({ search, view }: { search: string; view: InsightsView }) {
  const to = (next: InsightsView) => {
    const params = new URLSearchParams(search);
    if (next === 'sources') params.set('view', 'sources');
    else params.delete('view');
    const query = params.toString();
    return `${paths.adminInsights}${query ? `?${query}` : ''}`;
  };
  const tab = (name: InsightsView, label: string) => (
    <Link
      to={to(name)}
      aria-current={view === name ? 'page' : undefined}
      className={`rounded-lg px-3.5 py-2 text-sm font-medium no-underline hover:no-underline ${
        view === name
          ? 'bg-sage-700 text-white'
          : 'border border-sand-300 bg-white text-sage-800 hover:bg-sand-100'
      }`}
    >
      {label}
    </Link>
  );
  return (
    <nav aria-label="Insights views" className="flex flex-wrap gap-2">
      {tab('overview', 'Visitors and funnel')}
      {tab('sources', 'Sources and campaigns')}
    </nav>
  );
}

/**
 * The owner's Insights (DESIGN.md "Insights"): visitors, page views, purchases and revenue of
 * a range of days, per day as a chart, and the funnel to a verified purchase. The range lives
 * in the address (`?from=…&to=…`), and so does the view: the visitors and funnel, or where
 * visitors and buyers came from (DESIGN.md "Sources and campaigns", `?view=sources`).
 */
export function InsightsPage() {
  const { search } = useLocation();
  const today = utcDay();
  const range = useMemo(() => readRange(search, today), [search, today]);
  const problem = rangeProblem(range);
  const view: InsightsView =
    new URLSearchParams(search).get('view') === 'sources' ? 'sources' : 'overview';

  return (
    <section aria-labelledby="insights-heading" className="space-y-6">
      <div>
        <h2 id="insights-heading" className="text-2xl font-semibold text-sage-800">
          Insights
        </h2>
        <p className="mt-1 text-ink-muted">
          How many people visit, where they come from, how far they get and what they buy.
        </p>
      </div>
      <RangePicker
        key={`${range.from}:${range.to}`}
        range={range}
        today={today}
        onChange={(next) => navigate(`${paths.adminInsights}${writeRange(search, next)}`)}
      />
      {problem ? (
        <p
          role="alert"
          className="rounded-2xl border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-800"
        >
          This range cannot be shown: {problem}
        </p>
      ) : (
        <>
          <ViewTabs search={search} view={view} />
          {view === 'sources' ? (
            <SourcesReport key={`${range.from}:${range.to}`} range={range} />
          ) : (
            <InsightsReport range={range} />
          )}
        </>
      )}
      <div className="space-y-1 text-sm text-ink-muted">
        <p>Days are counted in UTC.</p>
        <p>
          Visitors are counted without cookies: one browser on one day is one visitor, so a person
          who comes back on another day counts again. Browsers that send Global Privacy Control are
          not counted.
        </p>
      </div>
    </section>
  );
}
