import type { StoreContent } from './store-content';

/**
 * The offer's prices as the page writes them, computed from the store content's product. Apart
 * from the content schema, so the home page's code carries no validation library.
 */

/** The number of decimals a currency is written with (0 for JPY): prices are in its smallest unit. */
export function currencyDigits(currency: string): number {
  const format = new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency: currency.toUpperCase(),
  });
  return format.resolvedOptions().maximumFractionDigits ?? 2;
}

/** "$27" for whole amounts, "$27.50" otherwise: how the page writes a price. */
export function formatPrice(amountCents: number, currency: string): string {
  const amount = amountCents / 10 ** currencyDigits(currency);
  const digits = Number.isInteger(amount) ? 0 : currencyDigits(currency);
  return new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency: currency.toUpperCase(),
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(amount);
}

export type Offer = {
  price: string;
  /** The price in the currency's units (27 for 2700 cents) and its code: what analytics take. */
  value: number;
  currency: string;
  /** Present with a former price: it struck through, the percentage off and the saving. */
  former?: { price: string; percentOff: number; savings: string };
};

/**
 * The product's prices as the page shows them, the discount computed, never typed. The server
 * computes it with the page's settings (public-config.ts): a browser's first Intl.NumberFormat
 * takes 10–40 ms, one block of the main thread while the page hydrates.
 */
export function offerOf(product: StoreContent['product']): Offer {
  const price = formatPrice(product.priceCents, product.currency);
  const value = product.priceCents / 10 ** currencyDigits(product.currency);
  const currency = product.currency.toUpperCase();
  const { compareAtCents } = product;
  if (compareAtCents === null) return { price, value, currency };
  const savings = compareAtCents - product.priceCents;
  return {
    price,
    value,
    currency,
    former: {
      price: formatPrice(compareAtCents, product.currency),
      percentOff: Math.round((savings / compareAtCents) * 100),
      savings: formatPrice(savings, product.currency),
    },
  };
}
