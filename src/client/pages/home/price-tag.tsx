import { product } from '../../../shared/product';

/** The offer in one line: $27 against the struck-through $89, 70% off, save $62. */
export function PriceTag({ className = '' }: { className?: string }) {
  return (
    <div className={`flex flex-wrap items-baseline gap-x-4 gap-y-1 ${className}`}>
      <p className="font-serif text-5xl text-sage-800">${product.priceUsd}</p>
      <p className="text-xl text-ink-muted">
        <span className="sr-only">Regular price </span>
        <s>${product.formerPriceUsd}</s>
      </p>
      <p className="rounded-full bg-clay-100 px-3 py-1 text-sm font-semibold text-clay-700">
        {product.discountPercent}% off – save ${product.savingsUsd}
      </p>
    </div>
  );
}
