/**
 * Console-only analytics (SPEC.md §7). Every call becomes one console line:
 *   [analytics] <kind> <name> <JSON params>
 * When the browser sends Global Privacy Control, the line says the call was suppressed and
 * nothing else happens.
 */
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

/** True when the visitor's browser sends the Global Privacy Control signal. */
export function hasGlobalPrivacyControl(): boolean {
  return (
    typeof navigator !== 'undefined' &&
    (navigator as Navigator & { globalPrivacyControl?: boolean }).globalPrivacyControl === true
  );
}

function record(kind: Kind, name: string, params: AnalyticsParams = {}): void {
  if (hasGlobalPrivacyControl()) {
    console.info(`[analytics] suppressed ${kind} ${name} (Global Privacy Control)`);
    return;
  }
  console.info(`[analytics] ${kind} ${name} ${JSON.stringify(params)}`);
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
