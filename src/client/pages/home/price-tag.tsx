import { useOffer, usePublicConfig } from '../../routing/public-config';
import { CodeNotice } from './code-notice';
import { SaleEnd } from './sale-end';

/** The offer in one line: $27 against the struck-through $89, 70% off, save $62 (computed). */
export function PriceTag({ className = '' }: { className?: string }) {
  const { price, former, endsAt } = useOffer();
  const { code } = usePublicConfig();
  return (
    <div className={`flex flex-wrap items-baseline gap-x-4 gap-y-1 ${className}`}>
      {code && <CodeNotice code={code} />}
      <p className="font-serif text-5xl text-sage-800">{price}</p>
      {former && (
        <>
          <p className="text-xl text-ink-muted">
            <span className="sr-only">Regular price </span>
            <s>{former.price}</s>
          </p>
          <p className="rounded-full bg-clay-100 px-3 py-1 text-sm font-semibold text-clay-700">
            {former.percentOff}% off – save {former.savings}
          </p>
        </>
      )}
      {endsAt && (
        <SaleEnd
          endsAt={endsAt}
          what={code?.applied && code.endsAt === endsAt ? `Code ${code.code ?? ''}` : 'Sale'}
        />
      )}
    </div>
  );
}
