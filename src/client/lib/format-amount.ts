/** An amount in the currency's smallest unit (cents), as the owner reads money. */
export function formatAmount(cents: number | null, currency: string | null): string {
  if (cents === null) return '—';
  if (!currency) return (cents / 100).toFixed(2);
  const code = currency.toUpperCase();
  try {
    const format = new Intl.NumberFormat(undefined, { style: 'currency', currency: code });
    const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
    return format.format(cents / 10 ** digits);
  } catch {
    // A code Intl does not know: still show the figure and the code.
    return `${(cents / 100).toFixed(2)} ${code}`;
  }
}
