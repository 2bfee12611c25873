import * as z from 'zod/mini';
import { emailSchema } from '../forms/form-schemas';

/**
 * Verified purchases (DESIGN.md "Selling for real"), on only when the server has
 * STRIPE_WEBHOOK_SECRET; the page learns it from PublicConfig.verifiedPurchases.
 *
 * Public:
 * - GET  /thank-you?session_id=ID          → 302 /#/thank-you?session_id=ID (Payment Link redirect)
 * - GET  orderSessionPath(id)              → 200 SessionStatus (never personal data but the
 *                                            masked address of a paid order)
 * - GET  sessionDownloadPath(id)           → the file, for an hour after payment; else 302 to
 *                                            the download-link page with a reason
 * - POST RESEND_LINK_PATH { email }        → 202 ResendLinkAnswer, the same for every address;
 *                                            400 { message } for a bad address; 429 when limited
 * - GET  /download/{token}                 → the file (attachment), or 302 to
 *                                            /#/download-link?reason=R when it cannot be used
 *
 * Admin (behind the admin guard; errors answer { error, message }):
 * - GET  ADMIN_ORDERS_PATH?page=N&status=S&q=TEXT → 200 OrderPage (newest first)
 * - PUT  adminOrderPath(id) { notes }             → 200 { order: AdminOrder }
 * - POST adminOrderPath(id) + '/resend-link'      → 201 { order: AdminOrder } (409 unless paid)
 * - POST adminOrderPath(id) + '/revoke'           → 200 { order: AdminOrder } (links revoked)
 */

export const orderStatuses = [
  'pending',
  'paid',
  'failed',
  'review',
  'refunded',
  'disputed',
] as const;
export type OrderStatus = (typeof orderStatuses)[number];

export const RESEND_LINK_PATH = '/api/orders/resend-link';
export const ADMIN_ORDERS_PATH = '/api/admin/orders';
export const ORDERS_PAGE_SIZE = 25;
/** How long the thank-you page may download directly after payment. */
export const SESSION_DOWNLOAD_MS = 60 * 60 * 1000;

/** Stripe Checkout session ids: `cs_test_…` / `cs_live_…`; anything else is never looked up. */
export const SESSION_ID_PATTERN = /^cs_[A-Za-z0-9_]{1,250}$/;
export const sessionIdSchema = z.string().check(z.regex(SESSION_ID_PATTERN));

export function orderSessionPath(sessionId: string): string {
  return `/api/orders/session/${encodeURIComponent(sessionId)}`;
}

export function sessionDownloadPath(sessionId: string): string {
  return `${orderSessionPath(sessionId)}/download`;
}

export function adminOrderPath(id: number): string {
  return `${ADMIN_ORDERS_PATH}/${id}`;
}

export type SessionStatus =
  | { status: Exclude<OrderStatus, 'paid'> }
  | {
      status: 'paid';
      /** The address the link was mailed to, masked: "j•••@example.com". */
      maskedEmail: string;
      /** Present for an hour after payment: an immediate download without the email. */
      downloadUrl?: string;
    };

export const resendLinkSchema = z.object({ email: emailSchema });
export type ResendLinkInput = z.infer<typeof resendLinkSchema>;
export type ResendLinkAnswer = { status: 'accepted' };

/** Why a download link cannot be used, as the download-link page explains it. */
export const linkProblems = ['expired', 'used', 'revoked', 'invalid'] as const;
export type LinkProblem = (typeof linkProblems)[number];

export type AdminOrder = {
  id: number;
  provider: string;
  sessionId: string;
  paymentIntent: string | null;
  email: string;
  name: string | null;
  /** In the currency's smallest unit (cents). */
  amountTotal: number | null;
  currency: string | null;
  status: OrderStatus;
  paidAt: string | null;
  createdAt: string;
  updatedAt: string;
  notes: string;
  /** Downloads through all of the order's links. */
  downloads: number;
  /** Links that can still be used (not expired, used up or revoked). */
  activeLinks: number;
  /** When the owner closed the order's downloads (Revoke); null while they are open. */
  linksRevokedAt: string | null;
  /**
   * Where the buyer came from (DESIGN.md "Sources and campaigns"), as the verified webhook
   * stored it; null when the payment named no source (counted as direct).
   */
  source: OrderSource | null;
};

export type OrderSource = {
  source: string;
  medium: string;
  campaign: string;
  channel: string;
  /** utm_content and utm_term of the link: '' when it had none. */
  content: string;
  term: string;
};

export type OrderPage = {
  orders: AdminOrder[];
  count: number;
  page: number;
  pageSize: number;
};

export const orderNotesSchema = z.object({ notes: z.string().check(z.maxLength(100_000)) });
