import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';

/** The signing secret tests give STRIPE_WEBHOOK_SECRET. */
export const TEST_WEBHOOK_SECRET = 'whsec_test_secret_for_signed_events';

let sequence = 0;
const randomId = (prefix: string) => `${prefix}_test_${randomBytes(12).toString('hex')}`;

export const newSessionId = () => randomId('cs');
export const newPaymentIntentId = () => randomId('pi');

export type TestSession = {
  id: string;
  object: 'checkout.session';
  payment_status: 'paid' | 'unpaid' | 'no_payment_required';
  status: 'complete' | 'open' | 'expired';
  amount_total: number;
  currency: string;
  payment_intent: string;
  customer_details: { email: string; name: string | null };
  customer_email: string | null;
  /** What the server put on a session it created (metadata.store_version). */
  metadata?: Record<string, string>;
  /** When Stripe created it (Unix seconds). */
  created?: number;
  /** The Payment Link's client_reference_id (the visit's source, DESIGN.md "Sources and campaigns"). */
  client_reference_id?: string | null;
  /** The amount before discounts and tax, and those, as Stripe reports them. */
  amount_subtotal?: number;
  total_details?: { amount_discount: number; amount_tax: number; amount_shipping?: number };
};

/** A Checkout Session as Stripe sends it for the bundle's Payment Link: paid, $27. */
export function checkoutSession(overrides: Partial<TestSession> = {}): TestSession {
  return {
    id: newSessionId(),
    object: 'checkout.session',
    payment_status: 'paid',
    status: 'complete',
    amount_total: 2700,
    currency: 'usd',
    payment_intent: newPaymentIntentId(),
    customer_details: { email: 'buyer@example.com', name: 'Bea Buyer' },
    customer_email: null,
    created: Math.floor(Date.now() / 1000),
    ...overrides,
  };
}

export function charge(paymentIntent: string, refunded: number, amount = 2700) {
  return {
    id: randomId('ch'),
    object: 'charge',
    payment_intent: paymentIntent,
    amount,
    amount_refunded: refunded,
    refunded: refunded >= amount,
  };
}

export function dispute(paymentIntent: string) {
  return { id: randomId('dp'), object: 'dispute', payment_intent: paymentIntent, charge: 'ch_x' };
}

/** A Stripe event of `type` about `object`, as the webhook receives it. */
export function stripeEvent(type: string, object: unknown, id = randomId('evt')) {
  sequence += 1;
  return {
    id,
    object: 'event',
    api_version: '2025-09-30.clover',
    created: Math.floor(Date.now() / 1000),
    type,
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    data: { object },
    sequence,
  };
}

/**
 * The body and Stripe-Signature header of an event, signed with the stripe package (no
 * network). `timestamp` (seconds) signs it as of another time, e.g. a stale replay.
 */
export function signedEvent(
  event: unknown,
  options: { secret?: string; timestamp?: number } = {},
): { payload: string; headers: Record<string, string> } {
  const payload = JSON.stringify(event);
  const header = Stripe.webhooks.generateTestHeaderString({
    payload,
    secret: options.secret ?? TEST_WEBHOOK_SECRET,
    ...(options.timestamp !== undefined && { timestamp: options.timestamp }),
  });
  return { payload, headers: { 'stripe-signature': header, 'content-type': 'application/json' } };
}
