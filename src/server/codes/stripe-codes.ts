import { createHash } from 'node:crypto';
import type Stripe from 'stripe';
import type { CodeRow } from './code-store';

/** What Stripe holds of a code after a sync: its coupon, promotion code and their terms. */
export type StripeCode = {
  stripe_coupon_id: string | null;
  stripe_promotion_code_id: string | null;
  stripe_terms: string | null;
};

/**
 * The terms Stripe keeps fixed on a coupon and its promotion code (the discount, the uses
 * left, the end), as a short hash: a change makes a new coupon and promotion code, and it
 * names the Idempotency-Keys, so a retried save never makes two.
 */
function termsKey(row: CodeRow, usesLeft: number | null): string {
  const terms = [
    row.code,
    row.percent_off,
    row.amount_off_cents,
    row.currency,
    usesLeft,
    row.ends_at ? new Date(row.ends_at).getTime() : null,
  ];
  return createHash('sha256').update(JSON.stringify(terms)).digest('hex').slice(0, 16);
}

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/**
 * Brings Stripe in line with a saved code: a coupon with a promotion code of the same text
 * while the code can be used, the old promotion code switched off when the terms change (Stripe
 * allows one active promotion code per text), and switched off when the code is. Every create
 * carries an Idempotency-Key made of the terms. Throws when Stripe fails; the caller's
 * transaction then keeps nothing, and a retry picks up where this stopped.
 */
export async function syncCode(
  stripe: Stripe,
  row: CodeRow,
  uses: number,
  now = new Date(),
): Promise<StripeCode> {
  const current: StripeCode = {
    stripe_coupon_id: row.stripe_coupon_id,
    stripe_promotion_code_id: row.stripe_promotion_code_id,
    stripe_terms: row.stripe_terms,
  };
  const usesLeft = row.max_uses === null ? null : row.max_uses - uses;
  const ended = row.ends_at !== null && row.ends_at.getTime() <= now.getTime();
  const wanted = row.active && !ended && (usesLeft === null || usesLeft > 0);
  const terms = termsKey(row, usesLeft);

  if (current.stripe_promotion_code_id && (!wanted || current.stripe_terms !== terms)) {
    await stripe.promotionCodes.update(current.stripe_promotion_code_id, { active: false });
    if (!wanted) return current;
    current.stripe_promotion_code_id = null;
  }
  if (!wanted) return current;
  if (current.stripe_promotion_code_id) {
    // The same terms: only whether it is active may differ.
    await stripe.promotionCodes.update(current.stripe_promotion_code_id, { active: true });
    return current;
  }
  const coupon = await stripe.coupons.create(
    {
      name: row.code,
      duration: 'once',
      ...(row.percent_off !== null
        ? { percent_off: row.percent_off }
        : { amount_off: row.amount_off_cents ?? 0, currency: row.currency ?? 'usd' }),
      metadata: { discount_code: row.code },
    },
    { idempotencyKey: `discount-code-coupon-${terms}` },
  );
  const promotion = await stripe.promotionCodes.create(
    {
      promotion: { type: 'coupon', coupon: coupon.id },
      code: row.code,
      active: true,
      ...(usesLeft !== null ? { max_redemptions: usesLeft } : {}),
      ...(row.ends_at ? { expires_at: seconds(row.ends_at) } : {}),
      metadata: { discount_code: row.code },
    },
    { idempotencyKey: `discount-code-promotion-${terms}` },
  );
  // The same terms as one switched off earlier today: Stripe answers that promotion code again.
  if (!promotion.active) await stripe.promotionCodes.update(promotion.id, { active: true });
  return {
    stripe_coupon_id: coupon.id,
    stripe_promotion_code_id: promotion.id,
    stripe_terms: terms,
  };
}
