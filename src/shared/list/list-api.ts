/**
 * The mailing list (DESIGN.md "The mailing list"): addresses added only with a recorded,
 * confirmed consent, and left in one click.
 *
 * Public (server-rendered pages, no JavaScript needed; any token, known or not, gets the same
 * page and status):
 * - GET  listConfirmPath(token)      → 200 a page with one button (changes nothing: mail
 *                                      scanners fetch links)
 * - POST listConfirmPath(token)      → 200 the subscriber is confirmed, a welcome email queued
 * - GET  listUnsubscribePath(token)  → 200 a page with one button
 * - POST listUnsubscribePath(token)  → 200 unsubscribed in the same transaction (RFC 8058
 *                                      one-click: body List-Unsubscribe=One-Click, no cookie,
 *                                      no origin)
 *
 * The free-guide form (POST /api/forms/free-guide) takes `listConsent: true`.
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

/** The body field of the free-guide form that asks for list email. */
export const LIST_CONSENT_FIELD = 'listConsent';

export const listConfirmPath = (token: string) => `/list/confirm/${token}`;
export const listUnsubscribePath = (token: string) => `/list/unsubscribe/${token}`;

/** The consent wording with the product's name in place of {product}. */
export function consentWording(template: string, productName: string): string {
  return template.replaceAll('{product}', productName);
}
