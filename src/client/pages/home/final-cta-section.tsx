import { Download, PackageX, ShieldCheck } from 'lucide-react';
import { primaryButton } from '../../components/styles';
import { CheckoutLink } from '../../components/checkout-link';
import { useStoreContent } from '../../routing/public-config';
import { PriceTag } from './price-tag';

/** The promises' icons, in turn. */
const icons = [ShieldCheck, Download, PackageX];

export function FinalCtaSection() {
  const { finalCta } = useStoreContent();
  return (
    <section id="final-cta" aria-labelledby="final-cta-title" className="bg-sand-50 py-20">
      <div className="mx-auto max-w-4xl px-6">
        <div className="rounded-[2rem] bg-gradient-to-br from-sage-100 to-sand-100 p-8 text-center shadow-sm sm:p-14">
          <p className="text-sm font-semibold tracking-widest text-clay-700 uppercase">
            {finalCta.eyebrow}
          </p>
          <h2 id="final-cta-title" className="mt-2 font-serif text-3xl text-sage-800 sm:text-4xl">
            {finalCta.title}
          </h2>
          <p className="mx-auto mt-4 max-w-xl text-lg text-ink-muted">{finalCta.text}</p>
          <PriceTag className="mt-8 justify-center" />
          <CheckoutLink source="final_cta" action="buy_now" className={`${primaryButton} mt-8`}>
            <Download aria-hidden="true" className="h-5 w-5" />
            Download Now
          </CheckoutLink>
          {finalCta.promises.length > 0 && (
            <ul className="mx-auto mt-10 grid max-w-3xl gap-4 text-left text-sm text-ink sm:grid-cols-3 sm:gap-6">
              {finalCta.promises.map((promise, index) => {
                const Icon = icons[index % icons.length]!;
                return (
                  <li key={index} className="flex items-start gap-2">
                    <Icon aria-hidden="true" className="h-5 w-5 shrink-0 text-sage-700" />
                    <span>{promise}</span>
                  </li>
                );
              })}
            </ul>
          )}
        </div>
      </div>
    </section>
  );
}
