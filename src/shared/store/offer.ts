import { currencyDigits, formatMoney } from '../money';
import type { StoreContent } from './store-content';

/** The offer's prices as the page writes them, computed from the store content's product. */

export type Offer = {
  price: string;
  /** The price in the currency's units (27 for 2700 cents) and its code: what analytics take. */
  value: number;
  currency: string;
  /** Present with a former price: it struck through, the percentage off and the saving. */
  former?: { price: string; percentOff: number; savings: string };
  /** A live sale's end (ISO time): the page says when the price goes back. */
  endsAt?: string;
};

/** "$27" for whole amounts, "$27.50" otherwise: how the page writes a price. */
function formatPrice(amount: number, currency: string): string {
  return formatMoney(amount, currency, { wholeWithoutCents: true });
}

/**
 * The product's prices as the page shows them, the discount computed, never typed. The server
 * computes it with the page's settings (public-config.ts): a browser's first Intl.NumberFormat
 * takes 10–40 ms, one block of the main thread while the page hydrates.
 */
export function offerOf(product: StoreContent['product']): Offer {
  const price = formatPrice(product.priceCents, product.currency);
  // The schema accepts only currencies Intl knows.
  const value = product.priceCents / 10 ** (currencyDigits(product.currency) ?? 2);
  const currency = product.currency.toUpperCase();
  const { compareAtCents } = product;
  const ends = product.sale ? { endsAt: product.sale.endsAt } : {};
  if (compareAtCents === null) return { price, value, currency, ...ends };
  const savings = compareAtCents - product.priceCents;
  return {
    price,
    value,
    currency,
    ...ends,
    former: {
      price: formatPrice(compareAtCents, product.currency),
      percentOff: Math.round((savings / compareAtCents) * 100),
      savings: formatPrice(savings, product.currency),
    },
  };
}
