import { currencyDigits } from '../../../shared/money';
import type { StoreContent } from '../../../shared/store/store-content';

/** The paths whose field the owner types as text but the content keeps as cents. */
export const PRICE_PATH = 'product.priceCents';
export const COMPARE_AT_PATH = 'product.compareAtCents';
/** A sale's fields, typed as text too: its price, and its start and end in the owner's time. */
export const SALE_PRICE_PATH = 'product.sale.priceCents';
export const SALE_STARTS_PATH = 'product.sale.startsAt';
export const SALE_ENDS_PATH = 'product.sale.endsAt';

/** An ISO time as a datetime-local field shows it, in the browser's time zone. */
function localTime(iso: string | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const local = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
}

/** A datetime-local field's value (the browser's time zone) as an ISO time; undefined if none. */
function isoTime(text: string): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(text.trim())) return undefined;
  const date = new Date(text.trim());
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/**
 * The Store page's form: the content as it is being edited, with the prices as the owner
 * types them ("27.50") by their content path.
 */
export type StoreForm = { content: StoreContent; prices: Record<string, string> };

/** Each field's message by its content path ("testimonials.items.2.quote"). */
export type FieldErrors = Record<string, string>;

function digitsOf(currency: string): number {
  return currencyDigits(currency) ?? 2;
}

function amountText(cents: number, currency: string): string {
  const digits = digitsOf(currency);
  const amount = cents / 10 ** digits;
  return Number.isInteger(amount) ? String(amount) : amount.toFixed(digits);
}

export function formOf(content: StoreContent): StoreForm {
  const { priceCents, compareAtCents, currency, sale } = content.product;
  return {
    content,
    prices: {
      [PRICE_PATH]: amountText(priceCents, currency),
      [COMPARE_AT_PATH]: compareAtCents === null ? '' : amountText(compareAtCents, currency),
      [SALE_PRICE_PATH]: sale ? amountText(sale.priceCents, currency) : '',
      [SALE_STARTS_PATH]: localTime(sale?.startsAt),
      [SALE_ENDS_PATH]: localTime(sale?.endsAt),
    },
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

/** The content the form describes, or the price fields whose text is not a price. */
export function contentOf(form: StoreForm): { content: StoreContent } | { errors: FieldErrors } {
  const { content } = form;
  const currency = content.product.currency.trim().toLowerCase();
  const price = cents(form.prices[PRICE_PATH] ?? '', currency);
  const compareAtText = form.prices[COMPARE_AT_PATH] ?? '';
  const compareAt = compareAtText.trim() === '' ? null : cents(compareAtText, currency);
  const errors: FieldErrors = {};
  if (price === undefined) errors[PRICE_PATH] = 'Enter the price as a number, such as 27 or 27.50.';
  if (compareAt === undefined) {
    errors[COMPARE_AT_PATH] = 'Enter the former price as a number, such as 89, or leave it empty.';
  }
  // A sale: none when its three fields are empty; else a price and an end, a start if typed.
  const saleText = [SALE_PRICE_PATH, SALE_STARTS_PATH, SALE_ENDS_PATH].map((path) =>
    (form.prices[path] ?? '').trim(),
  );
  let sale: StoreContent['product']['sale'];
  if (saleText.some(Boolean)) {
    const [priceText = '', startsText = '', endsText = ''] = saleText;
    const salePrice = cents(priceText, currency);
    const endsAt = isoTime(endsText);
    const startsAt = startsText ? isoTime(startsText) : undefined;
    if (salePrice === undefined) errors[SALE_PRICE_PATH] = 'Enter the sale price, such as 19.';
    if (endsAt === undefined) errors[SALE_ENDS_PATH] = 'Enter when the sale ends.';
    if (startsText && startsAt === undefined) errors[SALE_STARTS_PATH] = 'Enter a real time.';
    if (salePrice !== undefined && endsAt !== undefined) {
      sale = { priceCents: salePrice, endsAt, ...(startsAt ? { startsAt } : {}) };
    }
  }
  if (price === undefined || compareAt === undefined || Object.keys(errors).length > 0) {
    return { errors };
  }
  const product = { ...content.product };
  delete product.sale;
  return {
    content: {
      ...content,
      product: {
        ...product,
        priceCents: price,
        compareAtCents: compareAt,
        currency,
        ...(sale ? { sale } : {}),
      },
    },
  };
}

const keyOf = (key: string) => (/^\d+$/.test(key) ? Number(key) : key);

/** The value at a content path ("parts.0.title"). */
export function valueAt(content: unknown, path: string): unknown {
  let value = content;
  for (const key of path.split('.')) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<string | number, unknown>)[keyOf(key)];
  }
  return value;
}

/** A copy of `content` with `value` at `path`, every object and list on the way copied. */
export function withValue<T>(content: T, path: string, value: unknown): T {
  const [head, ...rest] = path.split('.');
  const key = keyOf(head!);
  const next =
    rest.length === 0 ? value : withValue(valueAt(content, head!), rest.join('.'), value);
  if (Array.isArray(content)) {
    const copy = [...content];
    copy[key as number] = next;
    return copy as T;
  }
  return { ...(content as object), [key]: next } as T;
}

/** Whether two forms describe the same content. */
export function sameForm(a: StoreForm, b: StoreForm): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
