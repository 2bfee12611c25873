import type { FastifyPluginAsync } from 'fastify';
import type Stripe from 'stripe';
import { CHECKOUT_PATH, type CheckoutAnswer } from '../../shared/orders/checkout-api';
import { HttpError } from '../http/errors';
import { requireSameOrigin } from '../http/same-origin';
import type { StoreContent } from '../../shared/store/store-content';
import type { PublishedStore } from '../store/store-plugin';
import { visitSourceSchema } from '../../shared/insights/insights-api';
import { DIRECT } from '../../shared/insights/visit-source';
import { channelOf } from '../insights/channel';
import * as z from 'zod/mini';
import { lookUpCode } from '../codes/code-offer';

/** The Checkout Session's metadata key naming the store version it was priced from. */
export const STORE_VERSION_KEY = 'store_version';
/** The metadata key naming the discount code the page applied. */
export const DISCOUNT_CODE_KEY = 'discount_code';

const codeBody = z.object({ code: z.optional(z.string().check(z.maxLength(100))) });

/** The code the buy button sends (the page's /?code=…), if any. */
function requestedCode(body: unknown): string | undefined {
  const parsed = codeBody.safeParse(body ?? {});
  return parsed.success && parsed.data.code?.trim() ? parsed.data.code : undefined;
}

/**
 * The visit's source in a Checkout Session's metadata (DESIGN.md "Sources and campaigns"), as
 * the webhook reads it back: utm_source, utm_medium, utm_campaign, the server's channel, and
 * utm_content and utm_term when the link had them.
 * Nothing for a body that holds no valid source: a buyer is never kept from the checkout for it.
 */
export function sourceMetadata(body: unknown): Record<string, string> {
  const parsed = visitSourceSchema.safeParse(body ?? {});
  if (!parsed.success || !parsed.data.source || parsed.data.source === DIRECT) {
    if (parsed.success && parsed.data.channel === 'paid') {
      return { utm_source: DIRECT, utm_medium: '', utm_campaign: '', channel: 'paid' };
    }
    return {};
  }
  const { source, medium = '', campaign = '', content, term } = parsed.data;
  return {
    utm_source: source,
    utm_medium: medium,
    utm_campaign: campaign,
    channel: channelOf({ source, medium, channel: parsed.data.channel }),
    ...(content && { utm_content: content }),
    ...(term && { utm_term: term }),
  };
}

/**
 * What Stripe is asked to sell: the published product at its price now (a live sale's price,
 * the regular one once it has ended), once.
 */
export function sessionParams(
  published: PublishedStore,
  publicUrl: string,
  {
    product = published.content.product,
    source = {},
    tax,
    code,
  }: {
    /** The product as shown now (a live sale's price); the published one by default. */
    product?: StoreContent['product'];
    /** The visit's source, as sourceMetadata() gives it. */
    source?: Record<string, string>;
    /** STRIPE_AUTOMATIC_TAX with the price's tax behaviour. */
    tax?: { behavior: 'inclusive' | 'exclusive' };
    /** A usable discount code and its promotion code in Stripe; without one the buyer may type one. */
    code?: { code: string; promotionCode: string };
  } = {},
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
    metadata: {
      [STORE_VERSION_KEY]: String(published.version),
      ...source,
      ...(code ? { [DISCOUNT_CODE_KEY]: code.code } : {}),
    },
    // Stripe takes one or the other: the page's code, or a field where the buyer may type one.
    ...(code
      ? { discounts: [{ promotion_code: code.promotionCode }] }
      : { allow_promotion_codes: true }),
    // Stripe's own unticked box for promotional email; a buyer who ticks it joins the list
    // from the verified webhook (DESIGN.md "The mailing list").
    consent_collection: { promotions: 'auto' },
  };
}

/**
 * POST /api/checkout (shared/orders/checkout-api.ts): a new Checkout Session for the published
 * product, carrying the visit's source the buy button sends. Registered only with
 * STRIPE_SECRET_KEY.
 */
export const checkoutRoute: FastifyPluginAsync<{ stripe: Stripe }> = async (app, { stripe }) => {
  app.post(
    CHECKOUT_PATH,
    { bodyLimit: 1024, config: { rateLimit: { max: 20, timeWindow: 60_000 } } },
    async (request): Promise<CheckoutAnswer> => {
      requireSameOrigin(request, app.config.publicUrl);
      const published = app.store.published();
      const product = app.store.shownProduct();
      const text = requestedCode(request.body);
      let code: { code: string; promotionCode: string } | undefined;
      if (text !== undefined) {
        const lookup = await lookUpCode(app.database.db, text, product);
        if (!lookup.usable) throw new HttpError(409, lookup.reason);
        if (!lookup.row.stripe_promotion_code_id) {
          throw new HttpError(409, `The code ${lookup.code} cannot be used at checkout yet.`);
        }
        code = { code: lookup.code, promotionCode: lookup.row.stripe_promotion_code_id };
      }
      let session: Stripe.Checkout.Session;
      try {
        session = await stripe.checkout.sessions.create(
          sessionParams(published, app.config.publicUrl, {
            product,
            code,
            source: sourceMetadata(request.body),
            tax: app.config.stripe?.automaticTax
              ? { behavior: app.config.stripe.taxBehavior }
              : undefined,
          }),
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
