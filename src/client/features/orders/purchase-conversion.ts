import { conversion } from '../../analytics/analytics';
import type { Offer } from '../../../shared/store/offer';

/** The Checkout sessions whose purchase this browser has already recorded. */
export const RECORDED_PURCHASES_KEY = 'soul-reset.recorded-purchases';
const KEEP = 20;

// Also kept in memory, for a browser that refuses storage: one page visit still records once.
const recordedHere = new Set<string>();

function readRecorded(): string[] {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(RECORDED_PURCHASES_KEY) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((id) => typeof id === 'string') : [];
  } catch {
    return [];
  }
}

/** SPEC.md §7's purchase conversion, at the product's published price. */
export function recordPurchase({ value, currency }: Offer): void {
  conversion('purchase', { value, currency });
}

/** The purchase conversion once per paid order: a reload or a second tab never repeats it. */
export function recordPurchaseOnce(sessionId: string, offer: Offer): void {
  const recorded = readRecorded();
  if (recordedHere.has(sessionId) || recorded.includes(sessionId)) return;
  recordedHere.add(sessionId);
  try {
    localStorage.setItem(
      RECORDED_PURCHASES_KEY,
      JSON.stringify([...recorded, sessionId].slice(-KEEP)),
    );
  } catch {
    // Storage full or refused: the in-memory record still prevents a repeat on this visit.
  }
  recordPurchase(offer);
}
