import Stripe from 'stripe';
import type { StripeSettings } from '../config/load-config';

/** Stripe's signature check on the raw body (300 s tolerance); throws when it fails. */
export function verifiedEvent(rawBody: Buffer, signature: string, secret: string): Stripe.Event {
  return Stripe.webhooks.constructEvent(rawBody, signature, secret, 300);
}

/** Stripe's API for session lookups, or undefined without STRIPE_SECRET_KEY. */
export function stripeClient(settings: StripeSettings): Stripe | undefined {
  if (!settings.secretKey) return undefined;
  const endpoint = settings.apiUrl ? new URL(settings.apiUrl) : undefined;
  return new Stripe(settings.secretKey, {
    maxNetworkRetries: 1,
    timeout: 5000,
    telemetry: false,
    ...(endpoint && {
      host: endpoint.hostname,
      port: endpoint.port || (endpoint.protocol === 'https:' ? 443 : 80),
      protocol: endpoint.protocol === 'https:' ? 'https' : 'http',
    }),
  });
}

/** The session as Stripe has it now; undefined when Stripe does not know the id. */
export async function retrieveSession(stripe: Stripe, id: string): Promise<unknown> {
  try {
    return await stripe.checkout.sessions.retrieve(id);
  } catch (error) {
    if (error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 404) {
      return undefined;
    }
    throw error;
  }
}
