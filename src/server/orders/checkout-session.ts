import { z } from 'zod';
import { SESSION_ID_PATTERN } from '../../shared/orders/order-api';

// eslint-disable-next-line no-control-regex
const controls = /[\u0000-\u001f\u007f\u2028\u2029]+/g;

/** Text from the payment form, as a mail header and the database can take it. */
const lineOfText = (max: number) =>
  z.string().transform((value) => value.replace(controls, ' ').trim().slice(0, max));

const paymentIntent = z
  .union([z.string(), z.object({ id: z.string() })])
  .nullable()
  .optional()
  .transform((value) => (typeof value === 'object' && value !== null ? value.id : value))
  .pipe(
    z
      .string()
      .regex(/^pi_[A-Za-z0-9_]{1,250}$/)
      .nullable()
      .optional(),
  );

/**
 * The parts of a Stripe Checkout Session the store reads, from a webhook event or from
 * Stripe's API. Signed or fetched with our key, it is still checked for shape.
 */
export const checkoutSessionSchema = z.object({
  id: z.string().regex(SESSION_ID_PATTERN),
  payment_status: z.string(),
  amount_total: z.number().int().min(0).max(1e12).nullable().optional(),
  currency: z
    .string()
    .regex(/^[A-Za-z]{3}$/)
    .nullable()
    .optional(),
  payment_intent: paymentIntent,
  customer_email: lineOfText(254).nullable().optional(),
  customer_details: z
    .object({
      email: lineOfText(254).nullable().optional(),
      name: lineOfText(200).nullable().optional(),
    })
    .nullable()
    .optional(),
});

export type CheckoutSession = z.infer<typeof checkoutSessionSchema>;

/** A charge, for `charge.refunded`. */
export const chargeSchema = z.object({
  payment_intent: paymentIntent,
  amount: z.number().int(),
  amount_refunded: z.number().int(),
});

/** A dispute, for `charge.dispute.created`. */
export const disputeSchema = z.object({ payment_intent: paymentIntent });

/** What a session says about its payment: paid (or free), or not yet. */
export function sessionOutcome(session: CheckoutSession): 'paid' | 'pending' {
  return session.payment_status === 'paid' || session.payment_status === 'no_payment_required'
    ? 'paid'
    : 'pending';
}
