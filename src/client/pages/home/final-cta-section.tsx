import { Download, PackageX, ShieldCheck } from 'lucide-react';
import { primaryButton } from '../../components/styles';
import { CheckoutLink } from '../../components/checkout-link';
import { PriceTag } from './price-tag';

export function FinalCtaSection() {
  return (
    <section id="final-cta" aria-labelledby="final-cta-title" className="bg-sand-50 py-20">
      <div className="mx-auto max-w-4xl px-6">
        <div className="rounded-[2rem] bg-gradient-to-br from-sage-100 to-sand-100 p-8 text-center shadow-sm sm:p-14">
          <p className="text-sm font-semibold tracking-widest text-clay-700 uppercase">
            Limited-time offer
          </p>
          <h2 id="final-cta-title" className="mt-2 font-serif text-3xl text-sage-800 sm:text-4xl">
            Start your 30-day reset today
          </h2>
          <p className="mx-auto mt-4 max-w-xl text-lg text-ink-muted">
            One payment, lifetime access, no subscription. Download the whole bundle in seconds and
            begin tonight.
          </p>
          <PriceTag className="mt-8 justify-center" />
          <CheckoutLink source="final_cta" action="buy_now" className={`${primaryButton} mt-8`}>
            <Download aria-hidden="true" className="h-5 w-5" />
            Download Now
          </CheckoutLink>
          <ul className="mx-auto mt-10 grid max-w-3xl gap-4 text-left text-sm text-ink sm:grid-cols-3 sm:gap-6">
            <li className="flex items-start gap-2">
              <ShieldCheck aria-hidden="true" className="h-5 w-5 shrink-0 text-sage-700" />
              <span>30-day guarantee: feel the difference within 30 days of practice.</span>
            </li>
            <li className="flex items-start gap-2">
              <Download aria-hidden="true" className="h-5 w-5 shrink-0 text-sage-700" />
              <span>Instant download: your files are ready the moment you pay.</span>
            </li>
            <li className="flex items-start gap-2">
              <PackageX aria-hidden="true" className="h-5 w-5 shrink-0 text-sage-700" />
              <span>Digital product: no physical item will be shipped.</span>
            </li>
          </ul>
        </div>
      </div>
    </section>
  );
}
