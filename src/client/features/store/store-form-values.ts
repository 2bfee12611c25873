import { currencyDigits } from '../../../shared/store/offer';
import type { StoreContent } from '../../../shared/store/store-content';

/** The Store page's form: the content with its prices as the owner types them ("27.50"). */
export type StoreFormValues = {
  name: string;
  price: string;
  compareAt: string;
  currency: string;
  checkoutUrl: string;
  heroTitle: string;
  heroText: string;
  thankYouTitle: string;
  thankYouText: string;
  receiptSubject: string;
  receiptIntro: string;
};

/** Which form field shows the error of a content path. */
export const fieldOfPath: Record<string, keyof StoreFormValues> = {
  'product.name': 'name',
  'product.priceCents': 'price',
  'product.compareAtCents': 'compareAt',
  'product.currency': 'currency',
  'product.checkoutUrl': 'checkoutUrl',
  'hero.title': 'heroTitle',
  'hero.text': 'heroText',
  'thankYou.title': 'thankYouTitle',
  'thankYou.text': 'thankYouText',
  'receipt.subject': 'receiptSubject',
  'receipt.intro': 'receiptIntro',
};

function digitsOf(currency: string): number {
  try {
    return currencyDigits(currency);
  } catch {
    return 2;
  }
}

function amountText(cents: number, currency: string): string {
  const digits = digitsOf(currency);
  const amount = cents / 10 ** digits;
  return Number.isInteger(amount) ? String(amount) : amount.toFixed(digits);
}

export function formValues(content: StoreContent): StoreFormValues {
  const { product, hero, thankYou, receipt } = content;
  return {
    name: product.name,
    price: amountText(product.priceCents, product.currency),
    compareAt:
      product.compareAtCents === null ? '' : amountText(product.compareAtCents, product.currency),
    currency: product.currency,
    checkoutUrl: product.checkoutUrl,
    heroTitle: hero.title,
    heroText: hero.text,
    thankYouTitle: thankYou.title,
    thankYouText: thankYou.text,
    receiptSubject: receipt.subject,
    receiptIntro: receipt.intro,
  };
}

const AMOUNT = /^\d{1,9}([.,]\d{1,3})?$/;

/** "27", "27.5" or "27,50" in the currency's smallest unit; undefined when it is not an amount. */
function cents(text: string, currency: string): number | undefined {
  const trimmed = text.trim().replace(/^[$€£]/, '');
  if (!AMOUNT.test(trimmed)) return undefined;
  const digits = digitsOf(currency);
  const [whole = '0', fraction = ''] = trimmed.replace(',', '.').split('.');
  if (fraction.length > digits) return undefined;
  return Number(whole) * 10 ** digits + Number(fraction.padEnd(digits, '0') || '0');
}

/**
 * The content the form describes, on top of `base` (the fields this form does not edit), or
 * the fields whose text is not a price.
 */
export function contentOf(
  values: StoreFormValues,
  base: StoreContent,
): { content: StoreContent } | { errors: Partial<Record<keyof StoreFormValues, string>> } {
  const currency = values.currency.trim().toLowerCase();
  const price = cents(values.price, currency);
  const compareAt = values.compareAt.trim() === '' ? null : cents(values.compareAt, currency);
  const errors: Partial<Record<keyof StoreFormValues, string>> = {};
  if (price === undefined) errors.price = 'Enter the price as a number, such as 27 or 27.50.';
  if (compareAt === undefined) {
    errors.compareAt = 'Enter the former price as a number, such as 89, or leave it empty.';
  }
  if (price === undefined || compareAt === undefined) return { errors };
  return {
    content: {
      ...base,
      product: {
        ...base.product,
        name: values.name,
        priceCents: price,
        compareAtCents: compareAt,
        currency,
        checkoutUrl: values.checkoutUrl,
      },
      hero: { ...base.hero, title: values.heroTitle, text: values.heroText },
      thankYou: { title: values.thankYouTitle, text: values.thankYouText },
      receipt: { subject: values.receiptSubject, intro: values.receiptIntro },
    },
  };
}
