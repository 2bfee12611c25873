import type { AppPath } from '../paths';

/**
 * What the collector on public pages may send (DESIGN.md "Insights"): `POST EVENTS_PATH` with
 * the JSON `{ name, path }` as a sendBeacon text body. Constants only, so the collector loads
 * no schema library; the server checks bodies with insightEventSchema (insights-api.ts).
 */
export const EVENTS_PATH = '/api/events';

/** Bodies over this many bytes are refused with 413. */
export const EVENT_BODY_LIMIT = 1024;

export const insightEventNames = [
  'page_view',
  'popup_shown',
  'popup_closed',
  'guide_requested',
  'form_submitted',
  'checkout_click',
] as const;
export type InsightEventName = (typeof insightEventNames)[number];

/**
 * The public screens an event may name as its path: the hash route, without its query. Listed
 * here rather than taken from prerendered-routes.ts, whose boot scripts would come along into
 * the collector's bundle, and spelled out rather than read from `paths`, whose every other
 * route would too (collector-size.test.ts); `satisfies` keeps each one a route of `paths`.
 */
export const insightPaths = [
  '/',
  '/thank-you',
  '/privacy-policy',
  '/refund-policy',
  '/terms-of-service',
  '/contact-us',
  '/download-link',
] as const satisfies readonly AppPath[];
export type InsightPath = (typeof insightPaths)[number];
