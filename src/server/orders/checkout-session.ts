import * as z from 'zod/mini';
import { SESSION_ID_PATTERN } from '../../shared/orders/order-api';
import { sourceValueSchema } from '../../shared/insights/insights-api';
import { channels, normaliseSourceValue } from '../../shared/insights/visit-source';

// eslint-disable-next-line no-control-regex
const controls = /[\u0000-\u001f\u007f\u2028\u2029]+/g;

/** Text from the payment form, as a mail header and the database can take it. */
const lineOfText = (max: number) =>
  z.pipe(
    z.string(),
    z.transform((value) => value.replace(controls, ' ').trim().slice(0, max)),
  );

/** Absent, null or the value: what Stripe sends for a field it may leave out. */
const maybe = <T extends z.ZodMiniType>(schema: T) => z.optional(z.nullable(schema));

const paymentIntent = z.pipe(
  z.pipe(
    maybe(z.union([z.string(), z.object({ id: z.string() })])),
    z.transform((value) => (typeof value === 'object' && value !== null ? value.id : value)),
  ),
  maybe(z.string().check(z.regex(/^pi_[A-Za-z0-9_]{1,250}$/))),
);

const NO_VERSION = 0;

/**
 * metadata.store_version: the store version whose price the session was created at (Stripe
 * keeps metadata values as strings). A value that is no version number names none that
 * exists, so the payment is held for review; it never makes the event unreadable.
 */
const storeVersion = z.catch(
  z.optional(
    z.pipe(
      z.string().check(z.regex(/^[1-9]\d{0,8}$/)),
      z.transform((value) => Number(value)),
    ),
  ),
  NO_VERSION,
);

/**
 * A source field of the metadata (DESIGN.md "Sources and campaigns"): set by our checkout, or
 * by the owner on a Payment Link in Stripe's dashboard, so normalised here; anything that is
 * still no source value is dropped, never making the event unreadable.
 */
const sourceField = z.catch(
  z.optional(
    z.pipe(
      z.pipe(
        z.string(),
        z.transform((value: string) => normaliseSourceValue(value)),
      ),
      sourceValueSchema,
    ),
  ),
  undefined,
);

/**
 * The parts of a Stripe Checkout Session the store reads, from a webhook event or from
 * Stripe's API. Signed or fetched with our key, it is still checked for shape.
 */
export const checkoutSessionSchema = z.object({
  id: z.string().check(z.regex(SESSION_ID_PATTERN)),
  payment_status: z.string(),
  amount_total: maybe(z.int().check(z.minimum(0), z.maximum(1e12))),
  /** The amount before discounts and tax: what the price check compares with the price. */
  amount_subtotal: maybe(z.int().check(z.minimum(0), z.maximum(1e12))),
  total_details: maybe(
    z.object({
      amount_discount: maybe(z.int().check(z.minimum(0), z.maximum(1e12))),
      amount_tax: maybe(z.int().check(z.minimum(0), z.maximum(1e12))),
    }),
  ),
  /** When the session was created (Unix seconds): a sale's price holds for one created before its end. */
  created: maybe(z.int().check(z.minimum(0), z.maximum(1e11))),
  currency: maybe(z.string().check(z.regex(/^[A-Za-z]{3}$/))),
  payment_intent: paymentIntent,
  customer_email: maybe(lineOfText(254)),
  customer_details: maybe(
    z.object({
      email: maybe(lineOfText(254)),
      name: maybe(lineOfText(200)),
    }),
  ),
  metadata: z.catch(
    maybe(
      z.object({
        store_version: storeVersion,
        utm_source: sourceField,
        utm_medium: sourceField,
        utm_campaign: sourceField,
        utm_content: sourceField,
        utm_term: sourceField,
        channel: z.catch(z.optional(z.enum(channels)), undefined),
        /** The discount code our checkout applied (checkout-route.ts). */
        discount_code: z.catch(z.optional(z.string().check(z.maxLength(100))), undefined),
      }),
    ),
    null,
  ),
  /** The promotion codes applied (ids, or objects when expanded): a code the buyer typed. */
  discounts: z.catch(
    maybe(
      z.array(
        z.object({
          promotion_code: maybe(z.union([z.string(), z.object({ id: z.string() })])),
        }),
      ),
    ),
    null,
  ),
  /** The Payment Link's reference: the visit's source when our buy button opened it. */
  client_reference_id: z.catch(maybe(z.string().check(z.maxLength(200))), null),
  /** The buyer's answer to the promotional consent box (`opt_in` when ticked). */
  consent: z.catch(maybe(z.object({ promotions: maybe(z.string()) })), null),
});

export type CheckoutSession = z.infer<typeof checkoutSessionSchema>;

/** A charge, for `charge.refunded`. */
export const chargeSchema = z.object({
  payment_intent: paymentIntent,
  amount: z.int(),
  amount_refunded: z.int(),
});

/** A dispute, for `charge.dispute.created`. */
export const disputeSchema = z.object({ payment_intent: paymentIntent });

/** What a session says about its payment: paid (or free), or not yet. */
export function sessionOutcome(session: CheckoutSession): 'paid' | 'pending' {
  return session.payment_status === 'paid' || session.payment_status === 'no_payment_required'
    ? 'paid'
    : 'pending';
}
