import { useState, type MouseEvent, type ReactNode } from 'react';
import { track } from '../analytics/analytics';
import { api } from '../lib/api-client';
import { leaveSite } from '../lib/leave-site';
import { CHECKOUT_PATH, type CheckoutAnswer } from '../../shared/orders/checkout-api';
import { usePublicConfig } from '../routing/public-config';

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
 * one (the Payment Link still, should the server not answer).
 */
export function CheckoutLink({ source, action, className, children }: CheckoutLinkProps) {
  const { store, checkoutSessions, offer } = usePublicConfig();
  const { product } = store;
  const [opening, setOpening] = useState(false);

  async function openSession(event: MouseEvent<HTMLAnchorElement>) {
    event.preventDefault();
    if (opening) return;
    setOpening(true);
    try {
      const { url } = await api.post<CheckoutAnswer>(CHECKOUT_PATH);
      leaveSite.to(url);
    } catch {
      leaveSite.to(product.checkoutUrl);
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
      }}
    >
      {children}
    </a>
  );
}
