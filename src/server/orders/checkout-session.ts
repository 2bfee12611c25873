import { z } from 'zod';

/**
 * The parts of a Stripe Checkout Session the store reads, from a webhook event or from
 * Stripe's API. Signed or fetched with our key, it is still checked for shape.
 */
export const checkoutSessionSchema = z.object({
  id: z.string().regex(/^cs_[A-Za-z0-9_]{1,250}$/),
  payment_status: z.string(),
  amount_total: z.number().int().nullable().optional(),
  currency: z.string().nullable().optional(),
  payment_intent: z
    .union([z.string(), z.object({ id: z.string() })])
    .nullable()
    .optional(),
  customer_email: z.string().nullable().optional(),
  customer_details: z
    .object({ email: z.string().nullable().optional(), name: z.string().nullable().optional() })
    .nullable()
    .optional(),
});

export type CheckoutSession = z.infer<typeof checkoutSessionSchema>;

/** A charge, for `charge.refunded`. */
export const chargeSchema = z.object({
  payment_intent: z
    .union([z.string(), z.object({ id: z.string() })])
    .nullable()
    .optional(),
  amount: z.number().int(),
  amount_refunded: z.number().int(),
});

/** A dispute, for `charge.dispute.created`. */
export const disputeSchema = z.object({
  payment_intent: z
    .union([z.string(), z.object({ id: z.string() })])
    .nullable()
    .optional(),
});

export function paymentIntentId(value: string | { id: string } | null | undefined): string | null {
  if (!value) return null;
  return typeof value === 'string' ? value : value.id;
}

/** What a session says about its payment: paid (or free), or not yet. */
export function sessionOutcome(session: CheckoutSession): 'paid' | 'pending' {
  return session.payment_status === 'paid' || session.payment_status === 'no_payment_required'
    ? 'paid'
    : 'pending';
}
