import type { StoreContent } from './store-content';

/**
 * The price live at every moment, from the published store versions (DESIGN.md "Prices and
 * promotions"), and what the page may honestly strike through under PRICE_RULES.
 */

export type PriceRules = 'off' | 'eu' | 'us';
export const PRICE_RULES = ['off', 'eu', 'us'] as const;

const DAY_MS = 86_400_000;
/** EU (Directive 98/6/EC Art. 6a): the lowest price of the 30 days before the reduction. */
export const EU_WINDOW_DAYS = 30;
/** US (16 CFR 233.1): a former price offered for a substantial period: 30 of the last 90 days. */
export const US_WINDOW_DAYS = 90;
export const US_MIN_DAYS = 30;

type Product = StoreContent['product'];
type Sale = NonNullable<Product['sale']>;

/** One published version's price, live from `from` until the next version's `from`. */
export type PricedVersion = {
  version: number;
  from: Date;
  priceCents: number;
  currency: string;
  compareAtCents: number | null;
  sale?: Sale | undefined;
};

/** The product's sale when it is live at `now` (started, not ended), else undefined. */
export function liveSale(product: Pick<Product, 'sale'>, now: Date): Sale | undefined {
  const { sale } = product;
  if (!sale) return undefined;
  const starts = sale.startsAt ? Date.parse(sale.startsAt) : -Infinity;
  return starts <= now.getTime() && now.getTime() < Date.parse(sale.endsAt) ? sale : undefined;
}

/** A version's price from `from` to `to`: its regular price, with its sale's stretch cut out. */
function spansOf(
  from: Date,
  to: Date | undefined,
  version: Pick<PricedVersion, 'priceCents' | 'currency' | 'sale'>,
): PriceSpan[] {
  const { priceCents, currency, sale } = version;
  const regular = (a: Date, b: Date | undefined): PriceSpan => ({
    from: a,
    to: b,
    priceCents,
    currency,
  });
  if (!sale) return [regular(from, to)];
  const starts = new Date(
    Math.max(from.getTime(), sale.startsAt ? Date.parse(sale.startsAt) : -Infinity),
  );
  const ends = new Date(Math.min(to?.getTime() ?? Infinity, Date.parse(sale.endsAt)));
  if (starts >= ends) return [regular(from, to)];
  return [
    regular(from, starts),
    { from: starts, to: ends, priceCents: sale.priceCents, currency },
    regular(ends, to),
  ].filter((span) => !span.to || span.to > span.from);
}

/** Spans in order, those of one price next to each other merged into one. */
function merged(spans: PriceSpan[]): PriceSpan[] {
  const out: PriceSpan[] = [];
  for (const span of spans) {
    const last = out.at(-1);
    if (last && last.priceCents === span.priceCents && last.currency === span.currency) {
      last.to = span.to;
    } else {
      out.push({ ...span });
    }
  }
  return out.filter((span) => !span.to || span.to > span.from);
}

/** A stretch of time at one price; `to` undefined while it lasts. */
export type PriceSpan = { from: Date; to: Date | undefined; priceCents: number; currency: string };

/** The versions (any order) as spans of one price each, merged where the price did not change. */
export function priceSpans(versions: readonly PricedVersion[]): PriceSpan[] {
  const sorted = [...versions].sort(
    (a, b) => a.from.getTime() - b.from.getTime() || a.version - b.version,
  );
  return merged(
    sorted.flatMap((version, index) => spansOf(version.from, sorted[index + 1]?.from, version)),
  );
}

/** The price live at `at`, or undefined before the first version. */
export function priceAt(spans: readonly PriceSpan[], at: Date): PriceSpan | undefined {
  return spans.find((span) => span.from <= at && (!span.to || span.to > at));
}

/** When the price live at `now` took effect (the start of its span). */
export function currentSince(spans: readonly PriceSpan[], now: Date): Date | undefined {
  return priceAt(spans, now)?.from;
}

/**
 * The lowest price live (in `currency`) at any moment of the `days` before `since`, or
 * undefined when none was.
 */
export function lowestBefore(
  spans: readonly PriceSpan[],
  since: Date,
  currency: string,
  days = EU_WINDOW_DAYS,
): number | undefined {
  const start = since.getTime() - days * DAY_MS;
  let lowest: number | undefined;
  for (const span of spans) {
    const to = span.to?.getTime() ?? Infinity;
    if (span.currency !== currency || to <= start || span.from.getTime() >= since.getTime()) {
      continue;
    }
    if (lowest === undefined || span.priceCents < lowest) lowest = span.priceCents;
  }
  return lowest;
}

/** How many days of the `days` before `now` the price was `priceCents` (fractions included). */
export function daysLiveAt(
  spans: readonly PriceSpan[],
  priceCents: number,
  currency: string,
  now: Date,
  days = US_WINDOW_DAYS,
): number {
  const start = now.getTime() - days * DAY_MS;
  let ms = 0;
  for (const span of spans) {
    if (span.priceCents !== priceCents || span.currency !== currency) continue;
    const from = Math.max(span.from.getTime(), start);
    const to = Math.min(span.to?.getTime() ?? Infinity, now.getTime());
    if (to > from) ms += to - from;
  }
  return ms / DAY_MS;
}

/** The facts about a product's struck-through price beside its history, for the Store page. */
export type FormerPriceCheck = {
  /** When the current price took effect (now, for a price not live yet). */
  since: string;
  /** The lowest price of the 30 days before `since`; null when none was live then. */
  lowest30Cents: number | null;
  /** Days of the last 90 the former price was live (0 without one). */
  formerDays: number;
  /** Why the struck-through price is not true, each in a sentence; empty when it is. */
  warnings: string[];
};

/**
 * The spans as they will be if `product` is live from `now` on (the draft as if published):
 * the history up to now, then its price.
 */
function withCurrent(spans: readonly PriceSpan[], product: Product, now: Date): PriceSpan[] {
  const past = spans
    .filter((span) => span.from < now)
    .map((span) => (span.to && span.to <= now ? span : { ...span, to: now }));
  // The sale's stretch before now is history already; from now on, the product's own prices.
  return merged([...past, ...spansOf(now, undefined, product)]);
}

/** What the history says of `product`'s former price at `now`. */
export function checkFormerPrice(
  spans: readonly PriceSpan[],
  product: Product,
  now: Date,
  formatCents: (cents: number) => string = String,
): FormerPriceCheck {
  const all = withCurrent(spans, product, now);
  const since = currentSince(all, now) ?? now;
  const lowest = lowestBefore(all, since, product.currency) ?? null;
  // During a sale the regular price is struck through.
  const former = liveSale(product, now) ? product.priceCents : product.compareAtCents;
  const formerDays = former === null ? 0 : daysLiveAt(all, former, product.currency, now);
  const warnings: string[] = [];
  if (former !== null) {
    const charged = all.some(
      (span) => span.priceCents === former && span.currency === product.currency,
    );
    if (!charged) {
      warnings.push(
        `The former price ${formatCents(former)} was never charged: no published version sold at it.`,
      );
    } else if (formerDays < US_MIN_DAYS) {
      warnings.push(
        `The former price ${formatCents(former)} was live only ${Math.floor(formerDays)} of the last ${US_WINDOW_DAYS} days (at least ${US_MIN_DAYS} are needed in the US).`,
      );
    }
    if (lowest === null) {
      warnings.push(
        `No price was live in the ${EU_WINDOW_DAYS} days before the current price took effect: in the EU no reduction may be announced.`,
      );
    } else if (lowest !== former) {
      warnings.push(
        `The lowest price of the ${EU_WINDOW_DAYS} days before the current price took effect is ${formatCents(lowest)}, not ${formatCents(former)}: in the EU the former price must be that lowest price.`,
      );
    }
  }
  return { since: since.toISOString(), lowest30Cents: lowest, formerDays, warnings };
}

/**
 * The product as the page shows it under `rules` at `now`. A live sale's price is the price,
 * struck from the regular one, and the sale stays on the product (its end is shown); a sale
 * not live is dropped, so at its end the page is the regular one again. `off` keeps the typed
 * former price; `eu` strikes through the lowest price of the 30 days before the current price
 * took effect, and none when that is not above the price; `us` keeps the former price only if
 * it was live at least 30 of the last 90 days. Only a typed former price or a sale announces
 * a reduction.
 */
export function shownProduct(
  rules: PriceRules,
  spans: readonly PriceSpan[],
  product: Product,
  now: Date,
): Product {
  const regular = { ...product };
  delete regular.sale;
  const sale = liveSale(product, now);
  const typed = sale ? product.priceCents : product.compareAtCents;
  const shown: Product = sale ? { ...regular, priceCents: sale.priceCents, sale } : regular;
  if (rules === 'off' || typed === null) return { ...shown, compareAtCents: typed };
  const all = withCurrent(spans, product, now);
  if (rules === 'eu') {
    const since = currentSince(all, now) ?? now;
    const lowest = lowestBefore(all, since, product.currency);
    const compareAtCents = lowest !== undefined && lowest > shown.priceCents ? lowest : null;
    return { ...shown, compareAtCents };
  }
  const days = daysLiveAt(all, typed, product.currency, now);
  return { ...shown, compareAtCents: days >= US_MIN_DAYS ? typed : null };
}
