import { hasGlobalPrivacyControl } from './global-privacy-control';
import {
  EVENTS_PATH,
  insightPaths,
  type InsightEventName,
} from '../../shared/insights/insight-events';
import { visitSourceOf, type VisitSource } from '../../shared/insights/visit-source';

/** The visit's source once read; null for a direct visit. */
let taken: VisitSource | null | undefined;

/**
 * The visit's source (DESIGN.md "Sources and campaigns"), read once, from the address and
 * referrer of the page load, and kept in this module's memory only: nothing in cookies or
 * storage, so a new page load is a new visit. Undefined for a direct visit. Callers check
 * Global Privacy Control first (nothing is read under it); it throws outside a browser.
 */
export function visitSource(): VisitSource | undefined {
  taken ??= visitSourceOf(location.href, document.referrer, location.host) ?? null;
  return taken ?? undefined;
}

/**
 * Sends one first-party insight event (DESIGN.md "Insights"): `{ name, path }`, the path being
 * the current hash route without its query, with the visit's source, medium, campaign and
 * channel unless the visit is direct. sendBeacon queues the request and
 * returns at once, and the browser delivers it even when the page is left right after (a click
 * to the checkout still counts). The body is a plain string, so it goes as text/plain. Nothing
 * is sent under Global Privacy Control, from a route outside insightPaths (the admin, the
 * sign-in) or by a browser without sendBeacon; it never throws.
 */
export function sendInsight(name: InsightEventName): void {
  try {
    if (hasGlobalPrivacyControl() || typeof navigator.sendBeacon !== 'function') return;
    // The hash route's path, as parseHashLocation reads it (which is too large to bring here).
    const path = `/${location.hash.replace(/^#\/?/, '').split(/[?#]/)[0]}`;
    if (!(insightPaths as readonly string[]).includes(path)) return;
    navigator.sendBeacon(EVENTS_PATH, JSON.stringify({ name, path, ...visitSource() }));
  } catch {
    // Statistics are never worth a broken page (a prerender without navigator, a refused URL).
  }
}
