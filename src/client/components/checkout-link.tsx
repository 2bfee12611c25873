import type { ReactNode } from 'react';
import { track } from '../analytics/analytics';
import { priceValue } from '../../shared/store/store-content';
import { useStoreContent } from '../routing/public-config';

type CheckoutLinkProps = {
  /** Where on the page the click came from. */
  source: 'hero' | 'final_cta' | 'order_form' | 'thank_you';
  /** What a call-to-action button promised; recorded as cta_click (SPEC.md §7). */
  action?: 'download_now' | 'buy_now';
  className?: string;
  children: ReactNode;
};

/** A link to the external checkout, opened in a new tab, that records the click. */
export function CheckoutLink({ source, action, className, children }: CheckoutLinkProps) {
  const { product } = useStoreContent();
  return (
    <a
      href={product.checkoutUrl}
      target="_blank"
      rel="noopener noreferrer"
      className={className}
      onClick={() => {
        track('stripe_payment_click', {
          source,
          value: priceValue(product),
          currency: product.currency.toUpperCase(),
        });
        if (action) track('cta_click', { source, action });
      }}
    >
      {children}
    </a>
  );
}
