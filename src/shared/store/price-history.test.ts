import { describe, expect, it } from 'vitest';
import {
  checkFormerPrice,
  daysLiveAt,
  lowestBefore,
  priceSpans,
  shownProduct,
  type PricedVersion,
} from './price-history';
import { seedContent } from './seed-content';

const DAY = 86_400_000;
const now = new Date('2026-06-01T12:00:00Z');
const daysAgo = (days: number) => new Date(now.getTime() - days * DAY);

const product = seedContent({
  priceCents: 2700,
  currency: 'usd',
  checkoutUrl: 'https://pay.example/x',
}).product;

/** Versions from [days ago, price] pairs, oldest first. */
function history(...steps: [number, number][]): PricedVersion[] {
  return steps.map(([days, priceCents], index) => ({
    version: index + 1,
    from: daysAgo(days),
    priceCents,
    currency: 'usd',
    compareAtCents: null,
  }));
}

const on = (priceCents: number, compareAtCents: number | null) => ({
  ...product,
  priceCents,
  compareAtCents,
});

describe('price history', () => {
  it('merges versions that kept the price and finds the lowest of a window', () => {
    const spans = priceSpans(history([100, 8900], [50, 8900], [20, 4900], [10, 8900]));
    expect(spans.map((span) => span.priceCents)).toEqual([8900, 4900, 8900]);
    expect(lowestBefore(spans, daysAgo(0), 'usd')).toBe(4900);
    expect(lowestBefore(spans, daysAgo(20), 'usd')).toBe(8900);
    expect(lowestBefore(spans, daysAgo(100), 'usd')).toBeUndefined();
    expect(daysLiveAt(spans, 8900, 'usd', now)).toBeCloseTo(80);
  });

  it('eu: the former price is the lowest of the 30 days before the price took effect', () => {
    // 89 for 60 days, then 27 since 5 days: 89 is the 30-day lowest.
    const spans = priceSpans(history([65, 8900], [5, 2700]));
    expect(shownProduct('eu', spans, on(2700, 8900), now).compareAtCents).toBe(8900);
    // The owner types 99 but 89 was charged: 89 is struck through, 70% off becomes 70% of 89.
    expect(shownProduct('eu', spans, on(2700, 9900), now).compareAtCents).toBe(8900);
  });

  it('eu: a cheaper price inside the window is the former price; none when no reduction', () => {
    // 39 from 40 to 25 days ago (inside the 30 days before 5 days ago), then 89, then 27.
    const spans = priceSpans(history([90, 8900], [40, 3900], [25, 8900], [5, 2700]));
    expect(shownProduct('eu', spans, on(2700, 8900), now).compareAtCents).toBe(3900);
    // 20 was charged in the window: 27 is no reduction, nothing is struck through.
    const cheaper = priceSpans(history([90, 8900], [30, 2000], [20, 8900], [5, 2700]));
    expect(shownProduct('eu', cheaper, on(2700, 8900), now).compareAtCents).toBeNull();
  });

  it('eu: window edges: a price that ended exactly 30 days before counts not, one a minute later does', () => {
    // The current price took effect 5 days ago; the window opens 35 days ago.
    const endedAtEdge = priceSpans(history([60, 3000], [35, 8900], [5, 2700]));
    expect(shownProduct('eu', endedAtEdge, on(2700, 8900), now).compareAtCents).toBe(8900);
    const edge = daysAgo(35).getTime() + 60_000;
    const spans = priceSpans([
      ...history([60, 3000]),
      { version: 2, from: new Date(edge), priceCents: 8900, currency: 'usd', compareAtCents: null },
      { version: 3, from: daysAgo(5), priceCents: 2700, currency: 'usd', compareAtCents: null },
    ]);
    expect(shownProduct('eu', spans, on(2700, 8900), now).compareAtCents).toBe(3000);
  });

  it('eu: a price not live before has no former price', () => {
    const spans = priceSpans(history([2, 2700]));
    expect(shownProduct('eu', spans, on(2700, 8900), now).compareAtCents).toBeNull();
  });

  it('us: the former price needs 30 of the last 90 days', () => {
    const enough = priceSpans(history([40, 8900], [10, 2700]));
    expect(shownProduct('us', enough, on(2700, 8900), now).compareAtCents).toBe(8900);
    const short = priceSpans(history([39, 8900], [10, 2700]));
    expect(shownProduct('us', short, on(2700, 8900), now).compareAtCents).toBeNull();
    // Long ago does not count: live 100 to 91 days ago and 20 more days since.
    const old = priceSpans(history([200, 8900], [91, 2700], [40, 8900], [20, 2700]));
    expect(daysLiveAt(old, 8900, 'usd', now)).toBeCloseTo(20);
    expect(shownProduct('us', old, on(2700, 8900), now).compareAtCents).toBeNull();
  });

  it('off: what the owner typed, whatever the history', () => {
    const spans = priceSpans(history([2, 2700]));
    expect(shownProduct('off', spans, on(2700, 8900), now).compareAtCents).toBe(8900);
  });

  it('a version restore starts the price anew: the restored reduction has a cheaper 30-day lowest', () => {
    // v1 89 for 60 days, v2 27 (reduction from 89), v3 restores v1 (89), v4 restores v2 (27).
    const spans = priceSpans(history([70, 8900], [10, 2700], [3, 8900], [1, 2700]));
    // The 27 took effect a day ago; 27 was live inside the 30 days before: no reduction.
    expect(shownProduct('eu', spans, on(2700, 8900), now).compareAtCents).toBeNull();
    const check = checkFormerPrice(spans, on(2700, 8900), now);
    expect(check.since).toBe(daysAgo(1).toISOString());
    expect(check.lowest30Cents).toBe(2700);
    expect(check.warnings.join(' ')).toMatch(/lowest price of the 30 days .* is 2700, not 8900/);
  });

  it('the Store page check warns of a former price never charged or not long enough', () => {
    const never = checkFormerPrice(priceSpans(history([60, 2700])), on(2700, 8900), now);
    expect(never.warnings[0]).toMatch(/8900 was never charged/);
    const short = checkFormerPrice(
      priceSpans(history([60, 8900], [50, 2700])),
      on(2700, 8900),
      now,
    );
    expect(short.warnings).toEqual([expect.stringMatching(/live only 10 of the last 90 days/)]);
    // The draft's new price as if published now: 89 for 60 days is the honest former price.
    const honest = checkFormerPrice(priceSpans(history([60, 8900])), on(2700, 8900), now);
    expect(honest).toEqual({
      since: now.toISOString(),
      lowest30Cents: 8900,
      formerDays: 60,
      warnings: [],
    });
  });

  describe('a sale', () => {
    const sale = (endsAt: Date, startsAt?: Date) => ({
      ...on(2700, null),
      sale: {
        priceCents: 1900,
        endsAt: endsAt.toISOString(),
        ...(startsAt ? { startsAt: startsAt.toISOString() } : {}),
      },
    });
    const regular = priceSpans(history([60, 2700]));

    it('is the price until its end, struck from the regular one; at the end, the regular price', () => {
      const ends = new Date(now.getTime() + 3_600_000);
      const during = shownProduct('off', regular, sale(ends, daysAgo(1)), now);
      expect(during).toMatchObject({ priceCents: 1900, compareAtCents: 2700 });
      expect(during.sale?.endsAt).toBe(ends.toISOString());
      const atEnd = shownProduct('off', regular, sale(ends, daysAgo(1)), ends);
      expect(atEnd).toMatchObject({ priceCents: 2700, compareAtCents: null });
      expect(atEnd.sale).toBeUndefined();
      // Not started yet: the regular price.
      const early = shownProduct('off', regular, sale(ends, new Date(now.getTime() + 60_000)), now);
      expect(early.priceCents).toBe(2700);
    });

    it('eu: struck from the lowest price of the 30 days before it started', () => {
      const ends = new Date(now.getTime() + 3_600_000);
      expect(shownProduct('eu', regular, sale(ends, daysAgo(1)), now).compareAtCents).toBe(2700);
      // A version published during the sale keeps its start: an earlier sale in the window
      // at the same price means no reduction.
      const again = priceSpans([
        { version: 1, from: daysAgo(60), priceCents: 2700, currency: 'usd', compareAtCents: null },
        {
          version: 2,
          from: daysAgo(20),
          priceCents: 2700,
          currency: 'usd',
          compareAtCents: null,
          sale: { priceCents: 1900, endsAt: daysAgo(10).toISOString() },
        },
      ]);
      expect(again.map((span) => span.priceCents)).toEqual([2700, 1900, 2700]);
      expect(shownProduct('eu', again, sale(ends, daysAgo(1)), now).compareAtCents).toBeNull();
      // us: the regular price was live 60 days: the comparison stands.
      expect(shownProduct('us', regular, sale(ends, daysAgo(1)), now).compareAtCents).toBe(2700);
    });
  });
});
