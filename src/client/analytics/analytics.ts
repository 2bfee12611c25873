/**
 * The analytics calls (SPEC.md §7). Every call becomes one console line:
 *   [analytics] <kind> <name> <JSON params>
 * and the calls in insightEvents below are also sent to our own server, by name and path only.
 * When the browser sends Global Privacy Control, the line says the call was suppressed and
 * nothing else happens.
 */
import { sendInsight } from './collector';
import { hasGlobalPrivacyControl } from './global-privacy-control';
import type { InsightEventName } from '../../shared/insights/insight-events';

export { hasGlobalPrivacyControl };

export type AnalyticsParams = Record<string, string | number | boolean>;

export type PageName =
  | 'home'
  | 'thank_you'
  | 'privacy_policy'
  | 'refund_policy'
  | 'terms_of_service'
  | 'contact_us'
  | 'download_link';

type Kind = 'page_view' | 'event' | 'conversion';

/**
 * The calls the first-party collector also sends, as insight events (DESIGN.md "Insights");
 * every page view is sent as page_view. Nothing else is sent.
 */
const insightEvents: Partial<Record<`${Kind} ${string}`, InsightEventName>> = {
  'event popup_shown': 'popup_shown',
  'event popup_closed': 'popup_closed',
  'event free_product_form_submit_success': 'guide_requested',
  'event stripe_payment_click': 'checkout_click',
  'conversion purchase_intent': 'form_submitted',
  'conversion refund_inquiry': 'form_submitted',
  'conversion support_inquiry': 'form_submitted',
  'conversion terms_feedback': 'form_submitted',
};

function record(kind: Kind, name: string, params: AnalyticsParams = {}): void {
  if (hasGlobalPrivacyControl()) {
    console.info(`[analytics] suppressed ${kind} ${name} (Global Privacy Control)`);
    return;
  }
  console.info(`[analytics] ${kind} ${name} ${JSON.stringify(params)}`);
  const insight = kind === 'page_view' ? 'page_view' : insightEvents[`${kind} ${name}`];
  if (insight) sendInsight(insight);
}

export function pageView(page: PageName): void {
  record('page_view', page);
}

export function track(event: string, params?: AnalyticsParams): void {
  record('event', event, params);
}

export function conversion(name: string, params?: AnalyticsParams): void {
  record('conversion', name, params);
}
