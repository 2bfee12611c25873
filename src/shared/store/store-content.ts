import * as z from 'zod/mini';
import { currencyDigits } from './offer';

/**
 * The store content (DESIGN.md "The offer, edited by the owner"): one JSON document with
 * everything a visitor reads or pays, validated by this one schema on both sides. Published
 * versions are kept whole; the page, the checkout and the webhook's amount check all read
 * the price from `product`.
 */

const currency = z.string().check(
  z.refine(
    (value) => {
      if (!/^[a-z]{3}$/.test(value)) return false;
      try {
        currencyDigits(value);
        return true;
      } catch {
        return false;
      }
    },
    { error: 'The currency must be a three-letter code such as usd.' },
  ),
);

/** Stripe's smallest charge is about 50 cents; 100 million units is beyond any digital product. */
const MIN_PRICE_CENTS = 50;
const MAX_PRICE_CENTS = 100_000_000;

function text(label: string, max: number) {
  return z
    .string()
    .check(
      z.trim(),
      z.minLength(1, { error: `${label} cannot be empty.` }),
      z.maxLength(max, { error: `${label} must be at most ${max} characters.` }),
    );
}

function cents(label: string) {
  return z
    .int({ error: `${label} must be a whole number of cents.` })
    .check(
      z.minimum(MIN_PRICE_CENTS, { error: `${label} must be at least ${MIN_PRICE_CENTS} cents.` }),
      z.maximum(MAX_PRICE_CENTS, { error: `${label} is too high.` }),
    );
}

const webAddress = z.string().check(
  z.trim(),
  z.refine(
    (value) => {
      try {
        return ['https:', 'http:'].includes(new URL(value).protocol);
      } catch {
        return false;
      }
    },
    { error: 'The checkout link must be a full address such as https://buy.stripe.com/….' },
  ),
);

/** An uploaded file's id; null means the file the server was configured with. */
const fileId = z.nullable(
  z.string().check(z.regex(/^[a-z0-9-]{1,64}$/, { error: 'Choose an uploaded file.' })),
);

export const storeContentSchema = z
  .object({
    product: z.object({
      name: text('The product name', 80),
      priceCents: cents('The price'),
      /** The struck-through former price; the discount and savings are computed from it. */
      compareAtCents: z.nullable(cents('The former price')),
      currency,
      checkoutUrl: webAddress,
      file: fileId,
    }),
    guide: z.object({ file: fileId }),
    hero: z.object({
      title: text('The headline', 120),
      text: text('The introduction', 600),
    }),
    /** The thank-you page after a purchase: its headline, and what follows "Your … is ready." */
    thankYou: z.object({
      title: text('The thank-you headline', 120),
      text: text('The thank-you text', 400),
    }),
    /** The buyer's receipt email (its download link, terms and amounts are added to it). */
    receipt: z.object({
      subject: text('The receipt subject', 150),
      intro: text('The receipt opening', 600),
    }),
  })
  .check(
    z.refine(
      (content) =>
        content.product.compareAtCents === null ||
        content.product.compareAtCents > content.product.priceCents,
      {
        error: 'The former price must be higher than the price (or left empty).',
        path: ['product', 'compareAtCents'],
      },
    ),
  );

export type StoreContent = z.output<typeof storeContentSchema>;

/** Each problem of a content document by its field path ("product.priceCents"): the first one. */
export function fieldErrors(error: z.core.$ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.map(String).join('.') || '(document)';
    fields[key] ??= issue.message;
  }
  return fields;
}
