import * as z from 'zod/mini';
import { insightEventNames, insightPaths } from './insight-events';

/**
 * Owner insights (DESIGN.md "Insights").
 *
 * Public:
 * - POST EVENTS_PATH { name, path } → 204, stored unless the request carries `Sec-GPC: 1`;
 *                                     400 for another name or path, 413 over
 *                                     EVENT_BODY_LIMIT bytes, 429 when the address sends
 *                                     too many. Never sets a cookie.
 *
 * Admin (behind the admin guard; errors answer { error, message }):
 * - GET ADMIN_INSIGHTS_PATH?from=YYYY-MM-DD&to=YYYY-MM-DD → 200 Insights
 *   Both ends included, days in UTC; without them, the INSIGHTS_DEFAULT_DAYS ending today.
 *   400 for a date that is not one, from after to, or more than INSIGHTS_MAX_DAYS days.
 *
 * A visitor is one browser on one day: a hash of that day's random salt, the address and the
 * user agent, neither of which is stored. Visitors of a range are the sum of its days.
 */
export const insightEventSchema = z.object({
  name: z.enum(insightEventNames),
  path: z.enum(insightPaths),
});

export const ADMIN_INSIGHTS_PATH = '/api/admin/insights';
export const INSIGHTS_DEFAULT_DAYS = 30;
export const INSIGHTS_MAX_DAYS = 366;

export function insightsPath(range: { from: string; to: string }): string {
  return `${ADMIN_INSIGHTS_PATH}?from=${range.from}&to=${range.to}`;
}

const isoDate = z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a date as YYYY-MM-DD'));

export const insightsRangeSchema = z.object({
  from: z.optional(isoDate),
  to: z.optional(isoDate),
});

/** The funnel, in order; `purchase` counts orders whose payment Stripe confirmed. */
export const funnelSteps = [
  'page_view',
  'popup_shown',
  'guide_requested',
  'checkout_click',
  'purchase',
] as const;
export type FunnelStepName = (typeof funnelSteps)[number];

export type InsightsDay = {
  /** YYYY-MM-DD (UTC). */
  date: string;
  visitors: number;
  pageviews: number;
  /** Verified paid orders (still paid: refunded and disputed ones are not counted). */
  purchases: number;
  /** Their amount in the currency's minor unit (cents). */
  revenue: number;
};

export type FunnelStep = { step: FunnelStepName; visitors: number };

export type Insights = {
  from: string;
  to: string;
  /** ISO 4217, lower case, as PRODUCT_CURRENCY: the currency of `revenue`. */
  currency: string;
  /** Every day of the range, oldest first, days without visits included as zeros. */
  days: InsightsDay[];
  funnel: FunnelStep[];
};
