import { useState, type MouseEvent, type ReactNode } from 'react';
import { hasGlobalPrivacyControl, track } from '../analytics/analytics';
import { visitSource } from '../analytics/collector';
import { sourceReference } from '../../shared/insights/source-reference';
import { api } from '../lib/api-client';
import { leaveSite } from '../lib/leave-site';
import { CHECKOUT_PATH, type CheckoutAnswer } from '../../shared/orders/checkout-api';
import { usePublicConfig } from '../routing/public-config';

/** The visit's source for the checkout: none under Global Privacy Control or for a direct visit. */
function checkoutSource() {
  return hasGlobalPrivacyControl() ? undefined : visitSource();
}

/**
 * The Payment Link with the visit's source as its client_reference_id (DESIGN.md "Sources and
 * campaigns"), which the webhook reads back; the link as published for a direct visit, under
 * Global Privacy Control, or when it is no URL.
 */
export function paymentLinkWithSource(checkoutUrl: string): string {
  try {
    const visit = checkoutSource();
    if (!visit) return checkoutUrl;
    const url = new URL(checkoutUrl);
    url.searchParams.set('client_reference_id', sourceReference(visit));
    return url.toString();
  } catch {
    return checkoutUrl;
  }
}

type CheckoutLinkProps = {
  /** Where on the page the click came from. */
  source: 'hero' | 'final_cta' | 'order_form' | 'thank_you';
  /** What a call-to-action button promised; recorded as cta_click (SPEC.md §7). */
  action?: 'download_now' | 'buy_now';
  className?: string;
  children: ReactNode;
};

/**
 * A link to the external checkout that records the click: the published Payment Link in a new
 * tab or, when the server makes Checkout Sessions, a session of the published product in this
 * one (the Payment Link still, should the server not answer). Either carries the visit's source.
 */
export function CheckoutLink({ source, action, className, children }: CheckoutLinkProps) {
  const { store, checkoutSessions, offer, code } = usePublicConfig();
  const { product } = store;
  const [opening, setOpening] = useState(false);

  async function openSession(event: MouseEvent<HTMLAnchorElement>) {
    event.preventDefault();
    if (opening) return;
    setOpening(true);
    try {
      // The page's code when it applies; else Stripe's checkout lets the buyer type one.
      const body = {
        ...checkoutSource(),
        ...(code?.applied && code.code ? { code: code.code } : {}),
      };
      const { url } = await api.post<CheckoutAnswer>(CHECKOUT_PATH, body);
      leaveSite.to(url);
    } catch {
      leaveSite.to(paymentLinkWithSource(product.checkoutUrl));
    } finally {
      setOpening(false);
    }
  }

  return (
    <a
      href={product.checkoutUrl}
      target="_blank"
      rel="noopener noreferrer"
      className={className}
      aria-busy={opening || undefined}
      onClick={(event) => {
        track('stripe_payment_click', {
          source,
          value: offer.value,
          currency: offer.currency,
        });
        if (action) track('cta_click', { source, action });
        if (checkoutSessions) void openSession(event);
        // The published link is what the page renders; the source goes on it at the click.
        else event.currentTarget.href = paymentLinkWithSource(product.checkoutUrl);
      }}
    >
      {children}
    </a>
  );
}
