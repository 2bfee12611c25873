import type { Kysely, Transaction } from 'kysely';
import type Stripe from 'stripe';
import type { Database } from '../db/schema';
import { isValidAddress } from '../mail/mail-message';
import {
  chargeSchema,
  checkoutSessionSchema,
  type CheckoutSession,
  disputeSchema,
  sessionOutcome,
} from './checkout-session';
import { applySession, closeForPayment, type OrderSettings } from './fulfilment';

export type EventOutcome =
  /** Handled now; `queued` when emails wait for the worker. */
  | { status: 'handled'; queued: boolean }
  /** Seen before (Stripe retries, replays): nothing changed. */
  | { status: 'replay' }
  /** A type the store does not act on. */
  | { status: 'ignored' }
  /** Signed, but not the shape its type promises. */
  | { status: 'malformed'; message: string };

type Parsed =
  | {
      kind: 'session';
      session: CheckoutSession;
      outcome: 'paid' | 'pending' | 'failed';
    }
  | {
      kind: 'close';
      paymentIntent: string | null;
      status: 'refunded' | 'disputed';
      revokes: boolean;
    };

const EVENT_ID = /^evt_[A-Za-z0-9_]{1,250}$/;

function parse(event: Stripe.Event): Parsed | { malformed: string } | undefined {
  const object: unknown = (event.data as { object?: unknown } | undefined)?.object;
  if (typeof event.id !== 'string' || !EVENT_ID.test(event.id)) {
    return { malformed: 'The event has no valid id.' };
  }
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded':
    case 'checkout.session.async_payment_failed': {
      const session = checkoutSessionSchema.safeParse(object);
      if (!session.success) return { malformed: 'The event holds no checkout session.' };
      const outcome =
        event.type === 'checkout.session.async_payment_failed'
          ? 'failed'
          : event.type === 'checkout.session.async_payment_succeeded'
            ? 'paid'
            : sessionOutcome(session.data);
      return { kind: 'session', session: session.data, outcome };
    }
    case 'charge.refunded': {
      const charge = chargeSchema.safeParse(object);
      if (!charge.success) return { malformed: 'The event holds no charge.' };
      // Only a refund of the whole payment takes the product back; a partial one is goodwill.
      const whole = charge.data.amount_refunded >= charge.data.amount;
      return {
        kind: 'close',
        paymentIntent: charge.data.payment_intent ?? null,
        status: 'refunded',
        revokes: whole,
      };
    }
    case 'charge.dispute.created': {
      const dispute = disputeSchema.safeParse(object);
      if (!dispute.success) return { malformed: 'The event holds no dispute.' };
      return {
        kind: 'close',
        paymentIntent: dispute.data.payment_intent ?? null,
        status: 'disputed',
        revokes: true,
      };
    }
    default:
      return undefined;
  }
}

/**
 * A paid buyer who ticked Stripe's promotional consent box joins the list, confirmed: the
 * signed event is the proof. Nobody else is added here.
 */
async function joinList(
  trx: Transaction<Database>,
  settings: OrderSettings,
  session: CheckoutSession,
  outcome: 'paid' | 'pending' | 'failed',
): Promise<boolean> {
  if (!settings.list || outcome !== 'paid' || session.consent?.promotions !== 'opt_in') {
    return false;
  }
  const email = (session.customer_details?.email ?? session.customer_email ?? '').trim();
  if (!isValidAddress(email)) return false;
  return settings.list.confirmBuyerIn(trx, {
    email,
    name: session.customer_details?.name?.trim() ?? '',
    storeVersion: session.metadata?.store_version || null,
  });
}

/**
 * One verified event, in one transaction: its id is recorded first, so a replay (or Stripe's
 * retry of an event already handled) changes nothing; then the order it is about changes. A
 * refund or dispute whose order has not arrived yet is kept by its payment intent, and the
 * order is closed the moment it does (fulfilment.ts).
 */
export async function handleEvent(
  db: Kysely<Database>,
  settings: OrderSettings,
  event: Stripe.Event,
): Promise<EventOutcome> {
  const parsed = parse(event);
  if (!parsed) return { status: 'ignored' };
  if ('malformed' in parsed) return { status: 'malformed', message: parsed.malformed };

  return db.transaction().execute(async (trx) => {
    const fresh = await trx
      .insertInto('payment_events')
      .values({
        event_id: event.id,
        type: event.type,
        session_id: parsed.kind === 'session' ? parsed.session.id : null,
        payment_intent:
          parsed.kind === 'session'
            ? (parsed.session.payment_intent ?? null)
            : parsed.paymentIntent,
        revokes: parsed.kind === 'close' && parsed.revokes,
      })
      .onConflict((conflict) => conflict.column('event_id').doNothing())
      .returning('event_id')
      .executeTakeFirst();
    if (!fresh) return { status: 'replay' };

    if (parsed.kind === 'session') {
      const change = await applySession(trx, settings, parsed.session, parsed.outcome);
      const joined = await joinList(trx, settings, parsed.session, parsed.outcome);
      return { status: 'handled', queued: change.queued || joined };
    }
    if (!parsed.revokes || !parsed.paymentIntent) return { status: 'handled', queued: false };
    const change = await closeForPayment(trx, settings, parsed.paymentIntent, parsed.status);
    return { status: 'handled', queued: change.queued };
  });
}
