import { describe, expect, it } from 'vitest';
import { seedContent } from '../../shared/store/seed-content';
import { completeContent } from './complete-content';

describe('completeContent', () => {
  const seed = seedContent();

  it('takes what the stored document lacks from the seed and keeps what it has, nulls included', () => {
    const stored: Record<string, unknown> = {
      ...seed,
      product: { ...seed.product, priceCents: 3100, compareAtCents: null },
    };
    delete stored.thankYou;
    const complete = completeContent(stored, seed);
    expect(complete.thankYou).toEqual(seed.thankYou);
    expect(complete.product).toMatchObject({ priceCents: 3100, compareAtCents: null });
  });

  it('orders the keys as the seed does, whatever order jsonb kept', () => {
    const shuffled = JSON.parse(
      JSON.stringify(Object.fromEntries(Object.entries(seed).reverse())),
    ) as unknown;
    expect(JSON.stringify(completeContent(shuffled, seed))).toBe(JSON.stringify(seed));
  });

  it('keeps a stored "__proto__" a plain key', () => {
    const stored = JSON.parse(`{"__proto__": {"polluted": true}}`) as unknown;
    const complete = completeContent(stored, seed) as unknown as Record<string, unknown>;
    expect(Object.getPrototypeOf(complete)).toBe(Object.prototype);
    expect(Object.hasOwn(complete, '__proto__')).toBe(true);
    expect((complete as { polluted?: boolean }).polluted).toBeUndefined();
  });
});
