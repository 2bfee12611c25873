import type { FastifyPluginAsync } from 'fastify';
import { sql } from 'kysely';
import {
  INSIGHTS_DEFAULT_DAYS,
  INSIGHTS_MAX_DAYS,
  funnelSteps,
  insightsRangeSchema,
  type FunnelStepName,
  type Insights,
  type InsightsDay,
} from '../../shared/insights/insights-api';
import { HttpError } from '../http/errors';
import { parsedOr400 } from '../http/input';
import { addDays, dayStart, rangeDays, utcDay } from '../../shared/utc-days';

/** A date of the range, or a 400 naming it. */
function checkedDay(date: string, what: string): string {
  if (Number.isNaN(dayStart(date))) {
    throw new HttpError(400, `Invalid range: ${what} ${date} is not a date.`);
  }
  return date;
}

/** The range asked for, both ends included; by default the last INSIGHTS_DEFAULT_DAYS. */
export function rangeOf(query: unknown): { from: string; to: string; days: string[] } {
  const asked = parsedOr400(insightsRangeSchema, query, 'Invalid range');
  const to = checkedDay(asked.to ?? utcDay(), 'to');
  const from = checkedDay(asked.from ?? addDays(to, 1 - INSIGHTS_DEFAULT_DAYS), 'from');
  if (from > to) throw new HttpError(400, 'Invalid range: from is after to.');
  const count = rangeDays({ from, to });
  if (count > INSIGHTS_MAX_DAYS) {
    throw new HttpError(400, `Invalid range: at most ${INSIGHTS_MAX_DAYS} days at a time.`);
  }
  return { from, to, days: Array.from({ length: count }, (_, i) => addDays(from, i)) };
}

type DayCount = { date: string; name: string; visitors: number; events: number };
type DaySales = { date: string; purchases: number; revenue: number };

/**
 * GET /api/admin/insights?from&to (DESIGN.md "Insights"). A day still holding raw events is
 * counted from them, so today is live; an older day from its roll-up. Purchases are orders
 * Stripe confirmed that are still paid, by the day they were paid (UTC).
 */
export const insightsRoutes: FastifyPluginAsync = async (scope) => {
  const { db } = scope.database;
  const { currency } = scope.config.product;

  scope.get('/insights', async (request): Promise<Insights> => {
    const { from, to, days } = rangeOf(request.query);
    const [counts, sales] = await Promise.all([
      sql<DayCount>`
        with live as (
          select day, name, count(distinct visitor)::int as visitors, count(*)::int as events
          from insight_events where day between ${from}::date and ${to}::date
          group by day, name
        )
        select to_char(day, 'YYYY-MM-DD') as date, name, visitors, events from live
        union all
        select to_char(day, 'YYYY-MM-DD'), name, visitors, events from insight_daily d
        where d.day between ${from}::date and ${to}::date
          and not exists (select 1 from live where live.day = d.day)`.execute(db),
      sql<DaySales>`
        select to_char((paid_at at time zone 'UTC')::date, 'YYYY-MM-DD') as date,
          count(*)::int as purchases, coalesce(sum(amount_total), 0)::float8 as revenue
        from orders
        where status = 'paid'
          and paid_at >= (${from}::date)::timestamp at time zone 'UTC'
          and paid_at < (${to}::date + 1)::timestamp at time zone 'UTC'
        group by 1`.execute(db),
    ]);

    const byDay = new Map<string, InsightsDay>(
      days.map((date) => [date, { date, visitors: 0, pageviews: 0, purchases: 0, revenue: 0 }]),
    );
    const stepVisitors = new Map<FunnelStepName, number>(funnelSteps.map((step) => [step, 0]));
    for (const row of counts.rows) {
      const day = byDay.get(row.date)!;
      if (row.name === 'page_view') {
        day.visitors = row.visitors;
        day.pageviews = row.events;
      }
      const step = row.name as FunnelStepName;
      if (stepVisitors.has(step)) stepVisitors.set(step, stepVisitors.get(step)! + row.visitors);
    }
    for (const row of sales.rows) {
      const day = byDay.get(row.date)!;
      day.purchases = row.purchases;
      day.revenue = row.revenue;
      stepVisitors.set('purchase', stepVisitors.get('purchase')! + row.purchases);
    }
    return {
      from,
      to,
      currency,
      days: [...byDay.values()],
      funnel: funnelSteps.map((step) => ({ step, visitors: stepVisitors.get(step)! })),
    };
  });
};
