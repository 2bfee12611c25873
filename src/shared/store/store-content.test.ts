import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { seedContent } from './seed-content';
import { offerOf } from './offer';
import { fieldErrors, storeContentSchema } from './store-content';

describe('the store content', () => {
  it('seeds the offer the site was built with: $27 against $89, 70% off, save $62', () => {
    const content = z.parse(storeContentSchema, seedContent());
    expect(offerOf(content.product)).toEqual({
      price: '$27',
      value: 27,
      currency: 'USD',
      former: { price: '$89', percentOff: 70, savings: '$62' },
    });
    expect(content.hero.title).toBe('Soul Reset Bundle: find your calm again in 30 days');
  });

  it('seeds no former price when the configured price is above it', () => {
    const content = seedContent({
      priceCents: 9900,
      currency: 'eur',
      checkoutUrl: 'https://x.test/',
    });
    expect(z.safeParse(storeContentSchema, content).success).toBe(true);
    expect(offerOf(content.product)).toEqual({ price: '€99', value: 99, currency: 'EUR' });
  });

  it('writes cents only when there are some, and zero-decimal currencies whole', () => {
    const product = seedContent().product;
    const priced = (priceCents: number, currency: string) =>
      offerOf({ ...product, priceCents, currency, compareAtCents: null });
    expect(priced(2750, 'usd')).toEqual({ price: '$27.50', value: 27.5, currency: 'USD' });
    expect(priced(2700, 'gbp')).toEqual({ price: '£27', value: 27, currency: 'GBP' });
    expect(priced(2700, 'jpy')).toEqual({ price: '¥2,700', value: 2700, currency: 'JPY' });
  });

  it('names each bad field by its path', () => {
    const content = seedContent();
    const bad = {
      ...content,
      product: {
        ...content.product,
        priceCents: 2900,
        currency: 'dollars',
        checkoutUrl: 'ftp://x',
      },
      hero: { ...content.hero, title: '   ' },
    };
    const result = z.safeParse(storeContentSchema, bad);
    expect(result.success).toBe(false);
    expect(fieldErrors(result.error!)).toEqual({
      'product.currency': 'The currency must be a three-letter code such as usd.',
      'product.checkoutUrl':
        'The checkout link must be a full address such as https://buy.stripe.com/….',
      'hero.title': 'The headline cannot be empty.',
    });
  });

  it('refuses a former price that is not above the price, at its field', () => {
    const content = seedContent();
    const result = z.safeParse(storeContentSchema, {
      ...content,
      product: { ...content.product, compareAtCents: content.product.priceCents },
    });
    expect(fieldErrors(result.error!)).toEqual({
      'product.compareAtCents': 'The former price must be higher than the price (or left empty).',
    });
  });

  it('refuses a policy link that is not a site page, web address or email, and two parts at one address', () => {
    const content = seedContent();
    const result = z.safeParse(storeContentSchema, {
      ...content,
      policies: { ...content.policies, terms: 'See [this](javascript:alert(1)).' },
      parts: [content.parts[0]!, { ...content.parts[1]!, anchor: content.parts[0]!.anchor }],
      hero: { ...content.hero, image: { file: '../etc/passwd', alt: '' } },
      testimonials: { ...content.testimonials, items: [] },
    });
    expect(fieldErrors(result.error!)).toEqual({
      'policies.terms':
        'The terms of service has a link that is not a page of this site (/contact-us), a web address (https://…) or an email (mailto:…).',
      parts: 'Two bundle parts have the same section address.',
      'hero.image.file': 'Choose an uploaded image.',
    });
  });

  it('keeps lists within their bounds', () => {
    const content = seedContent();
    const result = z.safeParse(storeContentSchema, {
      ...content,
      problem: { ...content.problem, items: [] },
      benefits: { ...content.benefits, stats: Array(5).fill({ figure: '1', label: 'x' }) },
    });
    expect(fieldErrors(result.error!)).toEqual({
      'problem.items': 'Keep at least 1 of the struggles.',
      'benefits.stats': 'At most 4 figures.',
    });
  });
});
