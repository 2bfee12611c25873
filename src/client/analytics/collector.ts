import { hasGlobalPrivacyControl } from './global-privacy-control';
import { parseHashLocation } from '../routing/hash-location';
import {
  EVENTS_PATH,
  insightPaths,
  type InsightEventName,
} from '../../shared/insights/insight-events';

/**
 * Sends one first-party insight event (DESIGN.md "Insights"): `{ name, path }`, the path being
 * the current hash route without its query, and nothing else. sendBeacon queues the request and
 * returns at once, and the browser delivers it even when the page is left right after (a click
 * to the checkout still counts). The body is a plain string, so it goes as text/plain. Nothing
 * is sent under Global Privacy Control, from a route outside insightPaths (the admin, the
 * sign-in) or by a browser without sendBeacon; it never throws.
 */
export function sendInsight(name: InsightEventName): void {
  try {
    if (hasGlobalPrivacyControl() || typeof navigator.sendBeacon !== 'function') return;
    const path = parseHashLocation(location.hash).pathname;
    if (!(insightPaths as readonly string[]).includes(path)) return;
    navigator.sendBeacon(EVENTS_PATH, JSON.stringify({ name, path }));
  } catch {
    // Statistics are never worth a broken page (a prerender without navigator, a refused URL).
  }
}
