import * as z from 'zod/mini';
import { formatMoney } from '../money';
import { zonedTime } from '../zoned-time';

/**
 * Discount codes (DESIGN.md "Prices and promotions"): GET/POST CODES_PATH, PUT codePath(code),
 * all behind the admin guard. A code takes a percentage or an amount off, may be limited in
 * uses and in time, and may be switched off.
 */
export const CODES_PATH = '/api/admin/store/codes';
export const codePath = (code: string) => `${CODES_PATH}/${encodeURIComponent(code)}`;

/** The query parameter of the home page that applies a code: /?code=SPRING. */
export const CODE_PARAM = 'code';

/** What Stripe accepts as a promotion code, kept in upper case (buyers type any case). */
export const CODE_PATTERN = /^[A-Za-z0-9-]{2,40}$/;
const CODE_ERROR = 'The code must be 2 to 40 letters, digits or dashes, such as SPRING.';

export const codeField = z.pipe(
  z.string({ error: CODE_ERROR }).check(z.trim(), z.regex(CODE_PATTERN, { error: CODE_ERROR })),
  z.transform((code: string) => code.toUpperCase()),
);

const isoTime = (what: string) =>
  z.nullable(
    z.optional(
      z.string({ error: `${what} must be a date and time.` }).check(
        z.refine((value) => !Number.isNaN(Date.parse(value)), {
          error: `${what} must be a date and time.`,
        }),
      ),
    ),
  );

/** The body of POST CODES_PATH and PUT codePath(code). */
export const codeBodySchema = z
  .object({
    code: codeField,
    percentOff: z.optional(
      z
        .int({ error: 'The percentage must be a whole number from 1 to 100.' })
        .check(
          z.minimum(1, { error: 'The percentage must be a whole number from 1 to 100.' }),
          z.maximum(100, { error: 'The percentage must be a whole number from 1 to 100.' }),
        ),
    ),
    amountOffCents: z.optional(
      z
        .int({ error: 'The amount off must be a whole number of cents.' })
        .check(
          z.minimum(1, { error: 'The amount off must be more than nothing.' }),
          z.maximum(100_000_000, { error: 'The amount off is too large.' }),
        ),
    ),
    maxUses: z.nullable(
      z.optional(
        z
          .int({ error: 'The maximum uses must be a whole number.' })
          .check(
            z.minimum(1, { error: 'The maximum uses must be at least 1.' }),
            z.maximum(10_000_000, { error: 'The maximum uses is too large.' }),
          ),
      ),
    ),
    startsAt: isoTime('The start'),
    endsAt: isoTime('The end'),
    active: z.boolean({ error: 'Say whether the code is active (true or false).' }),
  })
  .check(
    z.refine((body) => (body.percentOff === undefined) !== (body.amountOffCents === undefined), {
      error: 'Give either a percentage off or an amount off, not both.',
      path: ['percentOff'],
    }),
    z.refine(
      (body) =>
        !body.startsAt || !body.endsAt || Date.parse(body.startsAt) < Date.parse(body.endsAt),
      { error: 'The code must end after it starts.', path: ['endsAt'] },
    ),
  );

export type CodeBody = z.output<typeof codeBodySchema>;

/** The terms of a code: what it takes off and when it may be used. */
export type CodeTerms = {
  code: string;
  percentOff: number | null;
  amountOffCents: number | null;
  currency: string | null;
  maxUses: number | null;
  startsAt: string | null;
  endsAt: string | null;
  active: boolean;
};

/** A code as the admin lists it, with what the verified orders say of it. */
export type AdminCode = CodeTerms & {
  /** Paid orders whose discount this code explained. */
  uses: number;
  /** What those orders paid, in the code's (or the product's) currency, in cents. */
  revenueCents: number;
  /** Stripe's promotion code, when STRIPE_SECRET_KEY made one. */
  stripePromotionCode: string | null;
  createdAt: string;
  updatedAt: string;
};

export type CodeList = { rows: AdminCode[] };

/**
 * What the code takes off a price, as Stripe computes it: a percentage rounded to the nearest
 * cent, an amount off never more than the price.
 */
export function discountOf(
  priceCents: number,
  terms: Pick<CodeTerms, 'percentOff' | 'amountOffCents'>,
): number {
  if (terms.percentOff !== null) return Math.round((priceCents * terms.percentOff) / 100);
  return Math.min(terms.amountOffCents ?? 0, priceCents);
}

/** "Dec 1, 2026, 6:00 PM UTC": how a refusal names a code's start or end. */
export function codeTime(iso: string): string {
  return zonedTime(iso, 'UTC');
}

/** Whether a code may be used now, and if not, the sentence the page and checkout show. */
export type CodeState = { usable: true } | { usable: false; reason: string };

export function codeState(
  code: string,
  terms: (CodeTerms & { uses: number }) | undefined,
  now: Date,
  currency: string,
): CodeState {
  if (!terms || !terms.active) return { usable: false, reason: `The code ${code} is not valid.` };
  if (terms.startsAt && now.getTime() < Date.parse(terms.startsAt)) {
    return {
      usable: false,
      reason: `The code ${code} can be used from ${codeTime(terms.startsAt)}.`,
    };
  }
  if (terms.endsAt && now.getTime() >= Date.parse(terms.endsAt)) {
    return { usable: false, reason: `The code ${code} ended on ${codeTime(terms.endsAt)}.` };
  }
  if (terms.maxUses !== null && terms.uses >= terms.maxUses) {
    return {
      usable: false,
      reason: `The code ${code} has been used as many times as it can be.`,
    };
  }
  if (terms.amountOffCents !== null && terms.currency !== currency.toLowerCase()) {
    return { usable: false, reason: `The code ${code} is not valid for this price.` };
  }
  return { usable: true };
}

/** What a code takes off, in words: "20% off" or "$5 off". */
export function codeDiscountText(terms: CodeTerms): string {
  return terms.percentOff !== null
    ? `${terms.percentOff}% off`
    : `${formatMoney(terms.amountOffCents ?? 0, terms.currency ?? 'usd', { wholeWithoutCents: true })} off`;
}
