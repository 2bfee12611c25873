import { formatMoney } from '../../shared/money';

/** An amount in the currency's smallest unit (cents), as the owner reads money. */
export function formatAmount(cents: number | null, currency: string | null): string {
  if (cents === null) return '—';
  if (!currency) return (cents / 100).toFixed(2);
  return formatMoney(cents, currency, { locale: navigator.language });
}
