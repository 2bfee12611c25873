import * as z from 'zod/mini';
import { currencyDigits } from '../money';
import { RICH_TEXT_LINK } from './rich-text';

/**
 * The store content (DESIGN.md "The offer, edited by the owner"): one JSON document with
 * everything a visitor reads or pays, validated by this one schema on both sides. Published
 * versions are kept whole; the page, the checkout and the webhook's amount check all read
 * the price from `product`.
 */

const currency = z.string().check(
  z.refine((value) => /^[a-z]{3}$/.test(value) && currencyDigits(value) !== undefined, {
    error: 'The currency must be a three-letter code such as usd.',
  }),
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

/** A text the owner may leave empty (empty means not set yet). */
function optionalText(label: string, max: number) {
  return z
    .string()
    .check(z.trim(), z.maxLength(max, { error: `${label} must be at most ${max} characters.` }));
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

/**
 * An image of the page: an uploaded image's id (the server adds its sizes to the page, see
 * PublicConfig.media) or one of the images the site was built with ("builtin:<name>"), and
 * its description for screen readers (empty for a decorative one).
 */
const image = z.object({
  file: z.string().check(
    z.regex(/^(builtin:[a-z0-9-]{1,64}|[a-z0-9-]{1,64})$/, {
      error: 'Choose an uploaded image.',
    }),
  ),
  alt: z
    .string()
    .check(
      z.trim(),
      z.maxLength(300, { error: 'The image description must be at most 300 characters.' }),
    ),
});

/** One card of a list: a short title and its sentence. */
const card = (what: string) =>
  z.object({ title: text(`The ${what} title`, 100), text: text(`The ${what} text`, 400) });

function list<T extends z.ZodMiniType>(item: T, what: string, min: number, max: number) {
  return z
    .array(item)
    .check(
      z.minLength(min, { error: `Keep at least ${min} of the ${what}.` }),
      z.maxLength(max, { error: `At most ${max} ${what}.` }),
    );
}

/** The small label, heading and introduction that open a home page section. */
const heading = (section: string) => ({
  eyebrow: text(`The ${section} label`, 60),
  title: text(`The ${section} heading`, 120),
});

/**
 * Rich text as the policy pages take it: "## " starts a section, "- " a list item, "> " a
 * highlighted note, **bold** and [a link](/contact-us). Never HTML: it is rendered as
 * elements (src/shared/store/rich-text.ts), so nothing the owner types runs in the page.
 */
const richText = (label: string) =>
  text(label, 20_000).check(
    z.refine(
      (value) =>
        [...value.matchAll(/\]\(([^)]*)\)/g)].every((match) => RICH_TEXT_LINK.test(match[1]!)),
      {
        error: `${label} has a link that is not a page of this site (/contact-us), a web address (https://…) or an email (mailto:…).`,
      },
    ),
  );

const isoDate = z.string().check(
  z.regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'Enter the date as YYYY-MM-DD.' }),
  z.refine((value) => !Number.isNaN(Date.parse(value)), { error: 'Enter a real date.' }),
);

/** A moment as ISO 8601 with its offset ("2026-12-01T18:00:00.000Z"). */
const isoTime = (label: string) =>
  z.string().check(
    z.regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/, {
      error: `${label} must be a date and time, such as 2026-12-01T18:00:00Z.`,
    }),
    z.refine((value) => !Number.isNaN(Date.parse(value)), {
      error: `${label} is not a real time.`,
    }),
  );

/**
 * A sale (DESIGN.md "Prices and promotions"): its price from `startsAt` (or at once) until
 * `endsAt`, when every instance serves the regular price again. Absent: no sale.
 */
const sale = z.object({
  priceCents: cents('The sale price'),
  endsAt: isoTime('The end of the sale'),
  startsAt: z.optional(isoTime('The start of the sale')),
});

export const storeContentSchema = z
  .object({
    product: z.object({
      name: text('The product name', 80),
      priceCents: cents('The price'),
      /** The struck-through former price; the discount and savings are computed from it. */
      compareAtCents: z.nullable(cents('The former price')),
      sale: z.optional(sale),
      currency,
      checkoutUrl: webAddress,
      file: fileId,
    }),
    guide: z.object({ file: fileId }),
    /** The page's title and description for search results and shared links. */
    page: z.object({
      title: text('The page title', 120),
      description: text('The page description', 300),
      socialImage: z.nullable(image),
    }),
    hero: z.object({
      title: text('The headline', 120),
      text: text('The introduction', 600),
      image,
      /** The short promises under the buy button ("Instant download"). */
      promises: list(text('A promise', 40), 'promises', 0, 6),
    }),
    problem: z.object({
      ...heading('problem'),
      text: text('The problem introduction', 600),
      items: list(card('struggle'), 'struggles', 1, 8),
    }),
    solution: z.object({
      ...heading('solution'),
      text: text('The solution introduction', 600),
      items: list(card('habit'), 'habits', 1, 8),
      bundleTitle: text('The bundle list heading', 100),
      bundleItems: list(text('A bundle item', 100), 'bundle items', 1, 12),
      bundleNote: text('The bundle note', 300),
    }),
    /** One section per part of the bundle, each with its own address (#daily-presence-journal). */
    parts: list(
      z.object({
        anchor: z.string().check(
          z.regex(/^[a-z0-9][a-z0-9-]{0,63}$/, {
            error: 'The section address takes small letters, digits and dashes.',
          }),
        ),
        label: text('The part label', 40),
        title: text('The part title', 100),
        text: text('The part text', 600),
        points: list(text('A point', 120), 'points', 0, 8),
        image,
      }),
      'bundle parts',
      0,
      12,
    ),
    benefits: z.object({
      ...heading('results'),
      items: list(text('A result', 150), 'results', 1, 12),
      /** Figures such as "5,000+ customers". */
      stats: list(
        z.object({ figure: text('The figure', 20), label: text('The figure label', 60) }),
        'figures',
        0,
        4,
      ),
    }),
    testimonials: z.object({
      ...heading('testimonials'),
      items: list(
        z.object({
          quote: text('The quote', 600),
          name: text('The name', 60),
          detail: z
            .string()
            .check(
              z.trim(),
              z.maxLength(80, { error: 'The place must be at most 80 characters.' }),
            ),
          portrait: z.nullable(image),
        }),
        'testimonials',
        0,
        12,
      ),
      note: z
        .string()
        .check(z.trim(), z.maxLength(300, { error: 'The note must be at most 300 characters.' })),
    }),
    finalCta: z.object({
      ...heading('closing offer'),
      text: text('The closing text', 600),
      promises: list(text('A promise', 150), 'promises', 0, 6),
    }),
    /** The free-guide popup. */
    popup: z.object({
      title: text('The popup title', 80),
      text: text('The popup text', 400),
      button: text('The popup button', 40),
      image,
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
    /**
     * The mailing list's words: the popup's consent box ({product} is the product name), the
     * confirmation email and the welcome email (the first list email after confirming). Each
     * published wording is a version, so a consent event names the one shown.
     */
    list: z.object({
      consentLabel: text('The consent box label', 200),
      confirmSubject: text('The confirmation subject', 150),
      confirmText: text('The confirmation text', 600),
      welcomeSubject: text('The welcome subject', 150),
      welcomeText: text('The welcome text', 2000),
    }),
    /**
     * The sender's footer of every broadcast and sequence email (CAN-SPAM: who sends it and a
     * valid postal address). Empty until the owner fills it in; nothing is broadcast before.
     */
    sender: z.object({
      name: optionalText('The sender name', 100),
      postalAddress: optionalText('The postal address', 300),
    }),
    policies: z.object({
      updatedOn: isoDate,
      privacy: richText('The privacy policy'),
      terms: richText('The terms of service'),
      refund: richText('The refund policy'),
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
    z.refine(
      (content) =>
        !content.product.sale || content.product.sale.priceCents < content.product.priceCents,
      {
        error: 'The sale price must be lower than the price.',
        path: ['product', 'sale', 'priceCents'],
      },
    ),
    z.refine(
      (content) =>
        !content.product.sale?.startsAt ||
        Date.parse(content.product.sale.startsAt) < Date.parse(content.product.sale.endsAt),
      { error: 'The sale must end after it starts.', path: ['product', 'sale', 'endsAt'] },
    ),
    z.refine(
      (content) => new Set(content.parts.map((part) => part.anchor)).size === content.parts.length,
      { error: 'Two bundle parts have the same section address.', path: ['parts'] },
    ),
  );

export type StoreImage = z.output<typeof image>;

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
