import type { Kysely } from 'kysely';
import {
  CODE_PATTERN,
  codeDiscountText,
  codeState,
  discountOf,
} from '../../shared/codes/codes-api';
import type { PageCode } from '../../shared/public-config';
import type { StoreContent } from '../../shared/store/store-content';
import type { Database } from '../db/schema';
import { countedCode, termsOf, type CountedCode } from './code-store';

type Product = StoreContent['product'];

/** A code as the page and the checkout read it: usable with its row, or refused with why. */
export type CodeLookup =
  | { usable: true; code: string; row: CountedCode; discountCents: number }
  | { usable: false; code: string | undefined; reason: string };

/** Said of a text that is no stored code: the same for every such text, which the page caches once. */
export const UNKNOWN_CODE = 'This code is not valid: please check how it is written.';

/** The code `text` for `product` (the price shown now) at `now`. */
export async function lookUpCode(
  db: Kysely<Database>,
  text: string,
  product: Product,
  now = new Date(),
): Promise<CodeLookup> {
  const trimmed = text.trim();
  if (!CODE_PATTERN.test(trimmed)) return { usable: false, code: undefined, reason: UNKNOWN_CODE };
  const code = trimmed.toUpperCase();
  const row = await countedCode(db, code);
  if (!row) return { usable: false, code: undefined, reason: UNKNOWN_CODE };
  const state = codeState(code, { ...termsOf(row), uses: row.uses }, now, product.currency);
  if (!state.usable) return { usable: false, code, reason: state.reason };
  return { usable: true, code, row, discountCents: discountOf(product.priceCents, termsOf(row)) };
}

/** The earlier of two optional ISO times. */
function earlier(a: string | undefined, b: string | undefined): string | undefined {
  if (!a || !b) return a ?? b;
  return Date.parse(a) <= Date.parse(b) ? a : b;
}

/**
 * The product and the notice the page shows for a code: a usable one's price struck from the
 * price without it, until the code's end (or a sale's, if sooner); a refused one's reason with
 * the price unchanged.
 */
export function codedPage(
  product: Product,
  lookup: CodeLookup,
): { product: Product; code: PageCode } {
  if (!lookup.usable) {
    return {
      product,
      code: { code: lookup.code ?? null, applied: false, message: lookup.reason },
    };
  }
  const terms = termsOf(lookup.row);
  const priceCents = product.priceCents - lookup.discountCents;
  const endsAt = earlier(terms.endsAt ?? undefined, product.sale?.endsAt);
  return {
    product: {
      ...product,
      priceCents,
      compareAtCents: product.priceCents,
      sale: endsAt ? { priceCents, endsAt } : undefined,
    },
    code: {
      code: lookup.code,
      applied: true,
      message: `Code ${lookup.code} applied: ${codeDiscountText(terms)}.`,
      ...(terms.endsAt ? { endsAt: terms.endsAt } : {}),
    },
  };
}
