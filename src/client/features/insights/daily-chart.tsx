import type { InsightsDay } from '../../../shared/insights/insights-api';
import { formatAmount } from '../../lib/format-amount';
import { formatCount, totalsOf } from './insights-summary';

const dayLabel = new Intl.DateTimeFormat(undefined, {
  month: 'short',
  day: 'numeric',
  timeZone: 'UTC',
});

/** A YYYY-MM-DD (a UTC day) as a short date, "Nov 24". */
export function formatDay(date: string): string {
  return dayLabel.format(new Date(`${date}T00:00:00Z`));
}

/**
 * The top of the scale, so that it and its half are whole counts: `max` rounded up to an even
 * number up to 10, above that to 1, 2 or 5 times a power of ten.
 */
export function scaleTop(max: number): number {
  if (max <= 10) return Math.max(2, Math.ceil(max / 2) * 2);
  const power = 10 ** Math.floor(Math.log10(max));
  return [1, 2, 5, 10].map((step) => step * power).find((top) => top >= max)!;
}

const plural = (count: number, one: string, many: string) =>
  `${formatCount(count)} ${count === 1 ? one : many}`;

/** What the chart shows, in words: its accessible name. */
export function chartSummary(
  days: InsightsDay[],
  subject = 'Daily visitors and page views',
): string {
  if (days.length === 0) return `${subject}: no days to show.`;
  const { visitors, pageviews, purchases } = totalsOf(days);
  const span = `${days[0]!.date} to ${days.at(-1)!.date}`;
  if (visitors === 0 && pageviews === 0 && purchases === 0) {
    return `${subject} from ${span}: no visits yet.`;
  }
  const busiest = days.reduce((best, day) => (day.visitors > best.visitors ? day : best));
  return (
    `${subject} from ${span}: ` +
    `${plural(visitors, 'visitor', 'visitors')}, ${plural(pageviews, 'page view', 'page views')} ` +
    `and ${plural(purchases, 'purchase', 'purchases')} in all; the busiest day was ` +
    `${busiest.date} with ${plural(busiest.visitors, 'visitor', 'visitors')}.`
  );
}

// The drawing's own units: each day is SLOT wide; bars stand on BASE, the scale's top is at
// TOP, and purchases are marked above it. It stretches to the box, so lines keep their width
// with non-scaling strokes and the purchase dots are round caps of zero-length lines.
const SLOT = 10;
const TOP = 14;
const BASE = 100;
const height = (value: number, top: number) => ((BASE - TOP) * value) / top;

/**
 * Visitors and page views per day as bars, with a dot over each day that had a purchase: a
 * plain SVG that fills the width, labelled in words, with its figures as a table below.
 */
export function DailyChart({
  days,
  currency,
  subject,
}: {
  days: InsightsDay[];
  currency: string;
  /** What the chart counts, first in its accessible name. */
  subject?: string;
}) {
  const top = scaleTop(Math.max(0, ...days.map((day) => Math.max(day.pageviews, day.visitors))));
  const width = Math.max(1, days.length) * SLOT;
  const middle = days[Math.floor((days.length - 1) / 2)];
  const dates = days.length > 2 ? [days[0]!, middle!, days.at(-1)!] : days;
  const gridLines = [
    [top, TOP],
    [top / 2, (TOP + BASE) / 2],
    [0, BASE],
  ] as const;

  return (
    <div>
      <ul className="mb-3 flex flex-wrap gap-x-5 gap-y-1 text-sm text-ink-muted" aria-hidden="true">
        <li className="flex items-center gap-2">
          <span className="inline-block size-3 rounded-sm bg-sage-200 ring-1 ring-sage-500" />
          Page views
        </li>
        <li className="flex items-center gap-2">
          <span className="inline-block size-3 rounded-sm bg-sage-700" />
          Visitors
        </li>
        <li className="flex items-center gap-2">
          <span className="inline-block size-2.5 rounded-full bg-clay-700" />
          Purchase
        </li>
      </ul>
      <div className="pl-10">
        <div className="relative">
          <div
            className="pointer-events-none absolute inset-y-0 -left-10 w-9 text-right text-xs text-ink-muted tabular-nums"
            aria-hidden="true"
          >
            {gridLines.map(([value, y]) => (
              <span key={y} className="absolute right-0 -translate-y-1/2" style={{ top: `${y}%` }}>
                {formatCount(value)}
              </span>
            ))}
          </div>
          <svg
            role="img"
            aria-label={chartSummary(days, subject)}
            viewBox={`0 0 ${width} ${BASE}`}
            preserveAspectRatio="none"
            className="block h-48 w-full overflow-visible sm:h-56"
          >
            {gridLines.map(([, y]) => (
              <line
                key={y}
                x1={0}
                x2={width}
                y1={y}
                y2={y}
                vectorEffect="non-scaling-stroke"
                className={y === BASE ? 'stroke-sage-500' : 'stroke-sand-300'}
                strokeWidth={1}
              />
            ))}
            {days.map((day, index) => {
              const x = index * SLOT;
              const views = height(day.pageviews, top);
              const visits = height(day.visitors, top);
              return (
                <g key={day.date}>
                  {/* A pointer's tooltip; assistive technology reads the label and the table. */}
                  <title>
                    {`${formatDay(day.date)}: ${plural(day.visitors, 'visitor', 'visitors')}, ` +
                      `${plural(day.pageviews, 'page view', 'page views')}, ` +
                      plural(day.purchases, 'purchase', 'purchases')}
                  </title>
                  <rect
                    x={x + 1}
                    y={BASE - views}
                    width={SLOT - 2}
                    height={views}
                    className="fill-sage-200"
                  />
                  <rect
                    x={x + 2.5}
                    y={BASE - visits}
                    width={SLOT - 5}
                    height={visits}
                    className="fill-sage-700"
                  />
                  {day.purchases > 0 ? (
                    <path
                      d={`M ${x + SLOT / 2} ${TOP / 2} h 0`}
                      vectorEffect="non-scaling-stroke"
                      strokeLinecap="round"
                      strokeWidth={9}
                      className="stroke-clay-700"
                    />
                  ) : null}
                </g>
              );
            })}
          </svg>
        </div>
        <div
          className="mt-2 flex justify-between gap-2 text-xs text-ink-muted tabular-nums"
          aria-hidden="true"
        >
          {dates.map((day) => (
            <span key={day.date}>{formatDay(day.date)}</span>
          ))}
        </div>
      </div>
      <details className="mt-4 text-sm">
        <summary className="cursor-pointer font-medium text-sage-800">
          The figures of each day
        </summary>
        <div
          role="group"
          aria-label="Daily figures table"
          tabIndex={0}
          className="mt-2 max-h-80 overflow-auto rounded-lg border border-sand-200 focus-visible:outline-2 focus-visible:outline-sage-600"
        >
          <table className="w-full border-collapse text-left tabular-nums">
            <caption className="sr-only">
              Visitors, page views, purchases and revenue per day
            </caption>
            <thead className="sticky top-0 bg-sand-50">
              <tr>
                {['Day (UTC)', 'Visitors', 'Page views', 'Purchases', 'Revenue'].map((name) => (
                  <th
                    key={name}
                    scope="col"
                    className="px-2 py-2 text-xs font-semibold sm:px-3 text-ink-muted not-first:text-right"
                  >
                    {name}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-sand-200">
              {days.map((day) => (
                <tr key={day.date}>
                  <th scope="row" className="px-2 py-1.5 sm:px-3 font-normal whitespace-nowrap">
                    {day.date}
                  </th>
                  <td className="px-2 py-1.5 sm:px-3 text-right">{formatCount(day.visitors)}</td>
                  <td className="px-2 py-1.5 sm:px-3 text-right">{formatCount(day.pageviews)}</td>
                  <td className="px-2 py-1.5 sm:px-3 text-right">{formatCount(day.purchases)}</td>
                  <td className="px-2 py-1.5 sm:px-3 text-right whitespace-nowrap">
                    {formatAmount(day.revenue, currency)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </div>
  );
}
