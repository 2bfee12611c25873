/**
 * The mailing list (DESIGN.md "The mailing list"): addresses added only with a recorded,
 * confirmed consent, and left in one click.
 *
 * Public (server-rendered pages, no JavaScript needed; any token, known or not, gets the same
 * page and status):
 * - GET  listConfirmPath(token)      → 200 a page with one button (changes nothing: mail
 *                                      scanners fetch links)
 * - POST listConfirmPath(token)      → 200 the subscriber is confirmed, a welcome email queued
 * - GET  listUnsubscribePath(token)  → 200 a page with one button and the choice
 *                                      UNSUBSCRIBE_CHOICE_FIELD = 'list' | 'everything'
 * - POST listUnsubscribePath(token)  → 200 unsubscribed in the same transaction (RFC 8058
 *                                      one-click: body List-Unsubscribe=One-Click, no cookie,
 *                                      no origin, means 'list'; the page's form sends the
 *                                      choice)
 *
 * The free-guide form (POST /api/forms/free-guide) takes `listConsent: true`.
 *
 * Admin (behind the admin guard; writes need the PUBLIC_URL origin and are in the activity log):
 * - GET  ADMIN_SUBSCRIBERS_PATH?q&status&page       → 200 SubscriberPage (newest first)
 * - GET  ADMIN_SUBSCRIBERS_PATH + '/export'         → CSV of every subscriber, consent columns
 * - POST ADMIN_SUBSCRIBERS_PATH + '/import?dryRun=1' (CSV body, text/csv) → 200 ImportReport;
 *        without dryRun the valid new addresses are added `pending`, each sent a confirmation
 * - POST adminSubscriberPath(id) + '/unsubscribe'   → 200 { subscriber }
 */

export const listStatuses = [
  'pending',
  'confirmed',
  'unsubscribed',
  'bounced',
  'complained',
] as const;
export type ListStatus = (typeof listStatuses)[number];

export const listSources = ['free-guide', 'checkout', 'import'] as const;
export type ListSource = (typeof listSources)[number];

export const listEventKinds = [
  'asked',
  'confirmed',
  'unsubscribed',
  're-subscribed',
  'bounced',
  'complained',
  'imported',
  'erased-marker',
] as const;
export type ListEventKind = (typeof listEventKinds)[number];

/**
 * What the unsubscribe page's choice stops: `list` the list emails only; `everything` also the
 * requests to join (confirmation emails anyone could trigger by entering the address). Emails
 * the person asks for (receipts, download links, codes) go either way.
 */
export const unsubscribeScopes = ['list', 'everything'] as const;
export type UnsubscribeScope = (typeof unsubscribeScopes)[number];
export const UNSUBSCRIBE_CHOICE_FIELD = 'choice';

/** The body field of the free-guide form that asks for list email. */
export const LIST_CONSENT_FIELD = 'listConsent';

export const listConfirmPath = (token: string) => `/list/confirm/${token}`;
export const listUnsubscribePath = (token: string) => `/list/unsubscribe/${token}`;

/** The consent wording with the product's name in place of {product}. */
export function consentWording(template: string, productName: string): string {
  return template.replaceAll('{product}', productName);
}

export const ADMIN_SUBSCRIBERS_PATH = '/api/admin/subscribers';
export const adminSubscriberPath = (id: number) => `${ADMIN_SUBSCRIBERS_PATH}/${id}`;
export const SUBSCRIBERS_PAGE_SIZE = 50;
/** The largest CSV an import takes. */
export const IMPORT_MAX_BYTES = 20 * 1024 * 1024;

export type ConsentEvent = {
  kind: ListEventKind;
  wordingVersion: number | null;
  source: string;
  createdAt: string;
};

export type AdminSubscriber = {
  id: number;
  email: string;
  name: string;
  status: ListStatus;
  source: ListSource;
  createdAt: string;
  confirmedAt: string | null;
  unsubscribedAt: string | null;
  events: ConsentEvent[];
};

export type SubscriberPage = {
  rows: AdminSubscriber[];
  count: number;
  /** Subscribers by status and by source, whatever the filter. */
  counts: { status: Record<ListStatus, number>; source: Record<ListSource, number> };
};

export type ImportReport = {
  /** Data rows read (the header line not counted). */
  rows: number;
  /** New, well-formed addresses: added (or to be added) pending. */
  valid: number;
  /** Rows without a valid address. */
  invalid: number;
  /** Addresses already on the list, twice in the file, or erased before. */
  duplicates: number;
  /** True when nothing was written (dryRun=1). */
  dryRun: boolean;
};
