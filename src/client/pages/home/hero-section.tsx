import { Download, Infinity as InfinityIcon, PackageX, RefreshCcw } from 'lucide-react';
import type { MouseEvent } from 'react';
import { track } from '../../analytics/analytics';
import { primaryButton } from '../../components/styles';
import { CheckoutLink } from '../../components/checkout-link';
import { scrollToSection } from '../../lib/scroll';
import { useOffer, usePublicConfig, useStoreContent } from '../../routing/public-config';
import { ContentImage } from '../../components/content-image';
import { PriceTag } from './price-tag';

/** The promises' icons, in turn. */
const icons = [Download, InfinityIcon, RefreshCcw, PackageX];

export function HeroSection() {
  const { hero } = useStoreContent();
  const { price, former, endsAt } = useOffer();
  const { priceRules = 'off' } = usePublicConfig();
  // Under PRICE_RULES eu or us, "limited-time" only for an offer that really ends.
  const limited = priceRules === 'off' || endsAt !== undefined;
  function askFirst(event: MouseEvent<HTMLAnchorElement>) {
    event.preventDefault();
    // The visitor is heading for the order form, where the purchase is completed.
    track('cta_click', { source: 'hero', action: 'buy_now' });
    scrollToSection('order-form');
  }

  return (
    <section
      id="hero"
      aria-labelledby="hero-title"
      className="relative overflow-hidden bg-gradient-to-b from-sage-100 via-sand-50 to-sand-50"
    >
      <div className="mx-auto grid max-w-6xl items-center gap-12 px-6 pt-10 pb-16 md:grid-cols-[1.1fr_1fr] md:pt-16 md:pb-24">
        <div>
          {former && (
            <p className="inline-flex items-center gap-2 rounded-full bg-white/80 px-4 py-1.5 text-sm font-semibold text-clay-700 shadow-sm">
              {limited && 'Limited-time offer · '}
              {former.percentOff}% off
            </p>
          )}
          <h1
            id="hero-title"
            className="mt-5 font-serif text-4xl leading-tight text-sage-800 sm:text-5xl lg:text-[3.5rem]"
          >
            {hero.title}
          </h1>
          <p className="mt-5 max-w-xl text-lg leading-relaxed text-ink-muted">{hero.text}</p>
          <PriceTag className="mt-7" />
          <div className="mt-7 flex flex-col items-start gap-4 sm:flex-row sm:items-center">
            <CheckoutLink source="hero" action="download_now" className={primaryButton}>
              <Download aria-hidden="true" className="h-5 w-5" />
              Download Now – Just {price}
            </CheckoutLink>
            <a
              href="#/#order-form"
              onClick={askFirst}
              className="py-2 font-semibold text-sage-700 sm:px-2"
            >
              Or ask questions first
            </a>
          </div>
          <ul className="mt-8 grid grid-cols-2 gap-x-6 gap-y-3 text-sm text-ink-muted sm:flex sm:flex-wrap">
            {hero.promises.map((text, index) => {
              const Icon = icons[index % icons.length]!;
              return (
                <li key={index} className="flex items-center gap-2">
                  <Icon aria-hidden="true" className="h-4 w-4 text-sage-600" />
                  {text}
                </li>
              );
            })}
          </ul>
        </div>
        <ContentImage
          image={hero.image}
          sizes="(min-width: 1152px) 520px, (min-width: 768px) 45vw, 90vw"
          fetchPriority="high"
          className="mx-auto h-auto w-full max-w-md md:max-w-none"
        />
      </div>
    </section>
  );
}
