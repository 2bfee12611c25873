import type { FastifyPluginAsync } from 'fastify';
import type Stripe from 'stripe';
import { CHECKOUT_PATH, type CheckoutAnswer } from '../../shared/orders/checkout-api';
import { HttpError } from '../http/errors';
import { requireSameOrigin } from '../http/same-origin';
import type { StoreContent } from '../../shared/store/store-content';
import type { PublishedStore } from '../store/store-plugin';

/** The Checkout Session's metadata key naming the store version it was priced from. */
export const STORE_VERSION_KEY = 'store_version';

/**
 * What Stripe is asked to sell: the published product at its price now (a live sale's price,
 * the regular one once it has ended), once.
 */
export function sessionParams(
  published: PublishedStore,
  publicUrl: string,
  product: StoreContent['product'] = published.content.product,
  tax?: { behavior: 'inclusive' | 'exclusive' },
): Stripe.Checkout.SessionCreateParams {
  return {
    mode: 'payment',
    line_items: [
      {
        quantity: 1,
        price_data: {
          currency: product.currency,
          unit_amount: product.priceCents,
          product_data: { name: product.name },
          ...(tax ? { tax_behavior: tax.behavior } : {}),
        },
      },
    ],
    // STRIPE_AUTOMATIC_TAX: Stripe computes the tax; the payment check reads the amount before it.
    ...(tax ? { automatic_tax: { enabled: true } } : {}),
    success_url: `${publicUrl}/thank-you?session_id={CHECKOUT_SESSION_ID}`,
    cancel_url: `${publicUrl}/`,
    metadata: { [STORE_VERSION_KEY]: String(published.version) },
  };
}

/**
 * POST /api/checkout (shared/orders/checkout-api.ts): a new Checkout Session for the published
 * product. Registered only with STRIPE_SECRET_KEY.
 */
export const checkoutRoute: FastifyPluginAsync<{ stripe: Stripe }> = async (app, { stripe }) => {
  app.post(
    CHECKOUT_PATH,
    { bodyLimit: 1024, config: { rateLimit: { max: 20, timeWindow: 60_000 } } },
    async (request): Promise<CheckoutAnswer> => {
      requireSameOrigin(request, app.config.publicUrl);
      const published = app.store.published();
      let session: Stripe.Checkout.Session;
      try {
        session = await stripe.checkout.sessions.create(
          sessionParams(
            published,
            app.config.publicUrl,
            app.store.shownProduct(),
            app.config.stripe?.automaticTax
              ? { behavior: app.config.stripe.taxBehavior }
              : undefined,
          ),
        );
      } catch (error) {
        request.log.error({ err: error }, 'Could not create a Stripe Checkout Session');
        throw new HttpError(502, 'The checkout could not be opened. Please try again in a moment.');
      }
      if (!session.url) throw new HttpError(502, 'Stripe answered without a checkout page.');
      request.log.info({ session: session.id, version: published.version }, 'Checkout started');
      return { url: session.url };
    },
  );
};
