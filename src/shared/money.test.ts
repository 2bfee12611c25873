import { describe, expect, it } from 'vitest';
import { currencyDigits, formatMoney } from './money';

describe('money', () => {
  it('knows how many decimals a currency is written with, and which codes are none', () => {
    expect(currencyDigits('usd')).toBe(2);
    expect(currencyDigits('JPY')).toBe(0);
    expect(currencyDigits('kwd')).toBe(3);
    expect(currencyDigits('dollars')).toBeUndefined();
  });

  it("writes an amount in its smallest unit as people read it, in the site's English", () => {
    expect(formatMoney(2700, 'usd')).toBe('$27.00');
    expect(formatMoney(2750, 'eur')).toBe('€27.50');
    expect(formatMoney(2700, 'jpy')).toBe('¥2,700');
    expect(formatMoney(27500, 'kwd')).toBe('KWD\u00a027.500');
  });

  it('leaves out zero cents for the sales page, never cents that are there', () => {
    expect(formatMoney(2700, 'usd', { wholeWithoutCents: true })).toBe('$27');
    expect(formatMoney(2701, 'usd', { wholeWithoutCents: true })).toBe('$27.01');
  });

  it("writes the reader's locale when given one", () => {
    expect(formatMoney(123456, 'eur', { locale: 'de-DE' })).toBe('1.234,56\u00a0€');
  });

  it('still shows the figure and the code of a currency Intl does not know', () => {
    expect(formatMoney(2700, 'xyz1')).toBe('27.00 XYZ1');
  });
});
