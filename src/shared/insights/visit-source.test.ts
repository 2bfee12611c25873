import { describe, expect, it } from 'vitest';
import { normaliseSourceValue, SOURCE_VALUE_MAX, visitSourceOf } from './visit-source';

const OURS = 'shop.example.com';
const at = (query: string) => `https://${OURS}/${query}`;

describe('the source of a visit', () => {
  it.each([
    // [address, referrer] → source, medium, campaign, channel (the server refines the channel)
    // and, when tagged, content and term
    ['?utm_source=ig&utm_campaign=spring', '', ['ig', '', 'spring', 'referral']],
    ['#/?utm_source=ig&utm_medium=social', '', ['ig', 'social', '', 'referral']],
    ['?utm_source=ig#/privacy-policy?utm_campaign=spring', '', ['ig', '', 'spring', 'referral']],
    [
      '?utm_source=Newsletter&utm_medium=Email&utm_campaign=%20May%20%20Issue%20',
      '',
      ['newsletter', 'email', 'may issue', 'referral'],
    ],
    [
      '?utm_source=google&utm_medium=cpc&utm_campaign=brand',
      'https://www.google.com/',
      ['google', 'cpc', 'brand', 'referral'],
    ],
    ['?ref=producthunt', 'https://www.producthunt.com/', ['producthunt', '', '', 'referral']],
    ['?source=partner-blog', '', ['partner-blog', '', '', 'referral']],
    ['?utm_source=ig&ref=other', '', ['ig', '', '', 'referral']],
    ['', 'https://www.google.com/search?q=soul', ['google.com', '', '', 'referral']],
    ['', 'https://l.instagram.com/', ['l.instagram.com', '', '', 'referral']],
    ['?gclid=abc123', 'https://www.google.com/', ['google.com', '', '', 'paid']],
    ['?fbclid=xyz', '', ['direct', '', '', 'paid']],
    ['?utm_source=fb&fbclid=xyz', '', ['fb', '', '', 'paid']],
    ['?msclkid=1&utm_source=bing', '', ['bing', '', '', 'paid']],
    ['?wbraid=1', '', ['direct', '', '', 'paid']],
    [
      '?utm_source=ig&utm_campaign=spring&utm_content=Story%20B&utm_term=calm%0Amind',
      '',
      ['ig', '', 'spring', 'referral', 'story b', 'calm mind'],
    ],
    [
      `#/?utm_source=google&utm_medium=cpc&utm_term=${'k'.repeat(150)}`,
      '',
      ['google', 'cpc', '', 'referral', '', 'k'.repeat(SOURCE_VALUE_MAX)],
    ],
    // Content and term belong to a tagged source: alone, or with a referrer only, they are not read.
    ['?utm_content=b&utm_term=calm', 'https://www.google.com/', ['google.com', '', '', 'referral']],
  ])('%s from %s', (query, referrer, [source, medium, campaign, channel, content, term]) => {
    // Content and term the link did not have are left out (never sent empty).
    expect(visitSourceOf(at(query), referrer, OURS)).toStrictEqual({
      ...{ source, medium, campaign, channel },
      ...(content && { content }),
      ...(term && { term }),
    });
  });

  it.each([
    ['', ''],
    ['', `https://${OURS}/#/privacy-policy`],
    ['#/thank-you?session_id=cs_test_1', `https://${OURS}/`],
    ['', 'https://checkout.stripe.com/c/pay/cs_test_1'],
    ['', 'https://buy.stripe.com/test_123'],
    ['', 'not a url'],
    ['?utm_medium=email&utm_campaign=may', ''],
    ['?ref=', ''],
  ])('%s from %s is a direct visit', (query, referrer) => {
    expect(visitSourceOf(at(query), referrer, OURS)).toBeUndefined();
  });

  it('never keeps a click id', () => {
    const visit = visitSourceOf(at('?utm_source=ig&gclid=SECRET&fbclid=SECRET2'), '', OURS);
    expect(JSON.stringify(visit)).not.toMatch(/secret/i);
  });

  it('lower-cases, trims, mends blanks and control characters and cuts long values', () => {
    expect(normaliseSourceValue(`A\u0000B\tC  ${'x'.repeat(300)}`)).toHaveLength(SOURCE_VALUE_MAX);
    expect(normaliseSourceValue('  A\u0000B\tC ')).toBe('a b c');
    const cut = normaliseSourceValue(`${'a'.repeat(99)} b`);
    expect(cut).toBe('a'.repeat(99));
    expect(normaliseSourceValue(cut)).toBe(cut);
  });
});
