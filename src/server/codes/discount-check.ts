import type { Kysely } from 'kysely';
import { discountOf } from '../../shared/codes/codes-api';
import { formatMoney } from '../../shared/money';
import type { Database } from '../db/schema';
import { codeOfPromotion, countedCode, termsOf } from './code-store';

/** What the check reads of a Checkout Session (orders/checkout-session.ts parses the whole). */
export type DiscountedSession = {
  metadata?: { discount_code?: string } | null;
  discounts?: { promotion_code?: string | { id: string } | null }[] | null;
  total_details?: { amount_discount?: number | null } | null;
  currency?: string | null;
  created?: number | null;
  amount_subtotal?: number | null;
  amount_total?: number | null;
};

/** What the store's codes say of a session's discount. */
export type DiscountCheck = {
  /** The code that explains the discount (counted as one of its uses once paid). */
  code: string | null;
  /** The discount Stripe reports, in cents (0 for none). */
  amount: number;
  /** Why no active code explains it; undefined when one does or there is none. */
  problem?: string;
};

/** The code a session names: the one our checkout applied, else a promotion code the buyer typed. */
async function namedCode(
  db: Kysely<Database>,
  session: DiscountedSession,
): Promise<string | undefined> {
  if (session.metadata?.discount_code) return session.metadata.discount_code.toUpperCase();
  for (const discount of session.discounts ?? []) {
    const promotion = discount.promotion_code;
    const id = typeof promotion === 'string' ? promotion : promotion?.id;
    const code = id ? await codeOfPromotion(db, id) : undefined;
    if (code) return code;
  }
  return undefined;
}

/**
 * The webhook's discount check (DESIGN.md "Prices and promotions"): Stripe's
 * `total_details.amount_discount` must be what an active code takes off the session's
 * `amount_subtotal` (before tax, so tax never changes it), and the session created while the
 * code ran. Anything else is a discount no code explains: the payment is held for review.
 */
export async function checkDiscount(
  db: Kysely<Database>,
  session: DiscountedSession,
): Promise<DiscountCheck> {
  const amount = session.total_details?.amount_discount ?? 0;
  if (amount <= 0) return { code: null, amount: 0 };
  const currency = session.currency?.toLowerCase() ?? '';
  const shown = formatMoney(amount, currency || 'usd');
  const unexplained = (why: string): DiscountCheck => ({
    code: null,
    amount,
    problem: `A discount of ${shown} ${why}`,
  });
  const code = await namedCode(db, session);
  if (!code) return unexplained('names no code of the store.');
  const row = await countedCode(db, code);
  if (!row || !row.active) return unexplained(`names the code ${code}, which is not active.`);
  const created = session.created == null ? undefined : session.created * 1000;
  if (
    created !== undefined &&
    ((row.starts_at && created < row.starts_at.getTime()) ||
      (row.ends_at && created >= row.ends_at.getTime()))
  ) {
    return unexplained(`was given outside the dates of the code ${code}.`);
  }
  if (row.amount_off_cents !== null && row.currency !== currency) {
    return unexplained(`names the code ${code}, which takes off another currency.`);
  }
  const subtotal = session.amount_subtotal ?? (session.amount_total ?? 0) + amount;
  const expected = discountOf(subtotal, termsOf(row));
  if (expected !== amount) {
    return unexplained(
      `is not what the code ${code} takes off ${formatMoney(subtotal, currency || 'usd')} (${formatMoney(expected, currency || 'usd')}).`,
    );
  }
  return { code, amount };
}
