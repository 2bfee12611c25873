import * as z from 'zod/mini';
import { insightEventNames, insightPaths } from './insight-events';
import { channels, normaliseSourceValue, SOURCE_VALUE_MAX, type Channel } from './visit-source';

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
/**
 * A source, medium, campaign, content or term as the collector sends it: normalised (lower case, single
 * spaces, trimmed, no control characters) and at most SOURCE_VALUE_MAX characters. Anything
 * else was not sent by our collector and is refused.
 */
export const sourceValueSchema = z.string().check(
  z.maxLength(SOURCE_VALUE_MAX, `at most ${SOURCE_VALUE_MAX} characters`),
  z.refine((value) => normaliseSourceValue(value) === value, 'not a normalised value'),
);

/** The visit's source fields (DESIGN.md "Sources and campaigns"); absent = a direct visit. */
export const visitSourceShape = {
  source: z.optional(sourceValueSchema.check(z.minLength(1))),
  medium: z.optional(sourceValueSchema),
  campaign: z.optional(sourceValueSchema),
  channel: z.optional(z.enum(channels)),
  content: z.optional(sourceValueSchema),
  term: z.optional(sourceValueSchema),
};

export const visitSourceSchema = z.object(visitSourceShape);

export const insightEventSchema = z.object({
  name: z.enum(insightEventNames),
  path: z.enum(insightPaths),
  ...visitSourceShape,
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

export const ADMIN_INSIGHTS_SOURCES_PATH = '/api/admin/insights/sources';

/**
 * GET ADMIN_INSIGHTS_SOURCES_PATH?from&to[&source] → 200 InsightSources (DESIGN.md "Sources
 * and campaigns"); the range as for Insights. `days` are the range's days for the one source
 * named by `source` (every source without it).
 */
export function insightSourcesPath(range: { from: string; to: string }, source?: string): string {
  const query = new URLSearchParams({ from: range.from, to: range.to });
  if (source !== undefined) query.set('source', source);
  return `${ADMIN_INSIGHTS_SOURCES_PATH}?${query.toString()}`;
}

export const insightSourcesQuerySchema = z.object({
  from: z.optional(isoDate),
  to: z.optional(isoDate),
  source: z.optional(sourceValueSchema),
});

export type SourceRow = {
  source: string;
  medium: string;
  campaign: string;
  channel: Channel;
  /** Visitors of each day summed over the range. */
  visitors: number;
  guideRequests: number;
  checkoutClicks: number;
  /** Orders still paid (refunded and disputed ones are taken out). */
  purchases: number;
  /** Their amount in cents. */
  revenue: number;
};

export type InsightSources = {
  from: string;
  to: string;
  currency: string;
  rows: SourceRow[];
  /** Every day of the range for the source asked for (all sources without one). */
  days: InsightsDay[];
  /** Routes visitors entered the site by: the path of each visitor's first page view. */
  entries: { path: string; visitors: number }[];
  /** Browser and device class of visitors, from the user agent at ingestion. */
  clients: { browser: string; device: string; visitors: number }[];
};
