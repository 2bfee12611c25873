import { useId, useState, type ReactNode } from 'react';
import type { InsightSources } from '../../../shared/insights/insights-api';
import { adminInput, adminLabel } from '../../components/admin-styles';
import { LoadFailed, PanelLoading } from '../../components/load-states';
import { DailyChart } from './daily-chart';
import type { InsightsRange } from './insights-range';
import { formatCount } from './insights-summary';
import { SourcesTable } from './sources-table';
import { useSources } from './use-sources';

const card = 'rounded-2xl border border-sand-200 bg-white px-4 py-4 shadow-sm sm:px-6';

function Card({ title, intro, children }: { title: string; intro?: string; children: ReactNode }) {
  const headingId = `insights-${title.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <section aria-labelledby={headingId} className={card}>
      <h3 id={headingId} className="mb-4 text-base font-semibold text-sage-800">
        {title}
      </h3>
      {intro ? <p className="-mt-2 mb-4 text-sm text-ink-muted">{intro}</p> : null}
      {children}
    </section>
  );
}

/** A short list of names and visitor counts. */
function CountList({
  items,
  empty,
}: {
  items: { name: string; visitors: number }[];
  empty: string;
}) {
  if (items.length === 0) return <p className="text-sm text-ink-muted">{empty}</p>;
  return (
    <dl className="divide-y divide-sand-200 text-sm">
      {items.map((item) => (
        <div key={item.name} className="flex justify-between gap-4 py-1.5">
          <dt className="break-all">{item.name}</dt>
          <dd className="tabular-nums">{formatCount(item.visitors)}</dd>
        </div>
      ))}
    </dl>
  );
}

function SourceFilter({
  sources,
  value,
  onChange,
}: {
  sources: string[];
  value: string | undefined;
  onChange: (source: string | undefined) => void;
}) {
  const id = useId();
  return (
    <div className="mb-4 flex flex-wrap items-center gap-2">
      <label htmlFor={id} className={adminLabel}>
        Source
      </label>
      <select
        id={id}
        className={adminInput}
        value={value ?? ''}
        onChange={(event) => onChange(event.target.value || undefined)}
      >
        <option value="">Every source</option>
        {sources.map((source) => (
          <option key={source} value={source}>
            {source}
          </option>
        ))}
      </select>
    </div>
  );
}

function SourcesPanels({
  answer,
  range,
  source,
  onSource,
}: {
  answer: InsightSources;
  range: InsightsRange;
  source: string | undefined;
  onSource: (source: string | undefined) => void;
}) {
  const sources = [...new Set(answer.rows.map((row) => row.source))].sort();
  if (source && !sources.includes(source)) sources.unshift(source);
  return (
    <div className="space-y-6">
      <Card
        title="Sources"
        intro="Where visitors came from, and what they bought: purchases are orders Stripe confirmed and that are still paid."
      >
        <SourcesTable kind="sources" rows={answer.rows} currency={answer.currency} range={range} />
      </Card>
      <Card
        title="Campaigns"
        intro="Links tagged with utm_campaign, by source, medium and campaign."
      >
        <SourcesTable
          kind="campaigns"
          rows={answer.rows}
          currency={answer.currency}
          range={range}
        />
      </Card>
      <Card title="Visitors per day by source">
        <SourceFilter sources={sources} value={source} onChange={onSource} />
        <DailyChart
          days={answer.days}
          currency={answer.currency}
          subject={`Daily visitors and page views of ${source ?? 'every source'}`}
        />
      </Card>
      <div className="grid grid-cols-[minmax(0,1fr)] gap-6 lg:grid-cols-2">
        <Card title="Top entry routes" intro="The page each visitor's day began on.">
          <CountList
            items={answer.entries.map((entry) => ({ name: entry.path, visitors: entry.visitors }))}
            empty="Nothing in this range yet."
          />
        </Card>
        <Card
          title="Browsers and devices"
          intro="Read from the browser when it visits; only the kind is kept."
        >
          <CountList
            items={answer.clients.map((client) => ({
              name: `${client.browser}, ${client.device}`,
              visitors: client.visitors,
            }))}
            empty="Nothing in this range yet."
          />
        </Card>
      </div>
    </div>
  );
}

/** Admin → Insights' sources and campaigns (DESIGN.md "Sources and campaigns") for a range. */
export function SourcesReport({ range }: { range: InsightsRange }) {
  const [source, setSource] = useState<string | undefined>();
  const { data, loading, error, reload } = useSources(range, source);

  if (error && !loading) {
    return (
      <LoadFailed onRetry={reload} className="rounded-2xl">
        Could not load the sources: {error}
      </LoadFailed>
    );
  }
  if (!data) {
    return (
      <div className={card}>
        <PanelLoading>Loading sources…</PanelLoading>
      </div>
    );
  }
  return (
    <div aria-busy={loading} className={loading ? 'opacity-60 transition-opacity' : ''}>
      <SourcesPanels answer={data} range={range} source={source} onSource={setSource} />
    </div>
  );
}
