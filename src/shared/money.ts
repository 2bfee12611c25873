/**
 * Money as people read it. Amounts are in the currency's smallest unit (cents), as Stripe and
 * the store content keep them; a currency is its ISO code in either case ("usd", "USD").
 */

function currencyFormat(currency: string, locale: string, digits?: number): Intl.NumberFormat {
  return new Intl.NumberFormat(locale, {
    style: 'currency',
    currency: currency.toUpperCase(),
    ...(digits === undefined
      ? {}
      : { minimumFractionDigits: digits, maximumFractionDigits: digits }),
  });
}

/** The decimals `currency` is written with (2 for USD, 0 for JPY); undefined for no currency. */
export function currencyDigits(currency: string): number | undefined {
  try {
    return currencyFormat(currency, 'en-US').resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return undefined;
  }
}

export type MoneyStyle = {
  /** The reader's locale: the site's own (en-US) unless the admin passes the browser's. */
  locale?: string;
  /** "$27" rather than "$27.00" for a whole amount: how the sales page writes a price. */
  wholeWithoutCents?: boolean;
};

/** `amount` of `currency` as people write it: "$27.00"; "27.00 XYZ" for a code Intl lacks. */
export function formatMoney(
  amount: number,
  currency: string,
  { locale = 'en-US', wholeWithoutCents = false }: MoneyStyle = {},
): string {
  const digits = currencyDigits(currency);
  if (digits === undefined) return `${(amount / 100).toFixed(2)} ${currency.toUpperCase()}`;
  const units = amount / 10 ** digits;
  const shown = wholeWithoutCents && Number.isInteger(units) ? 0 : digits;
  return currencyFormat(currency, locale, shown).format(units);
}
