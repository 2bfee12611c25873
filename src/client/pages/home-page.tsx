import { useEffect } from 'react';
import { usePageView } from '../analytics/use-page-view';
import { useLocation } from '../routing/router';
import { formCard } from '../components/styles';
import { LogoMark } from '../components/logo';
import { SiteFooter } from '../components/site-footer';
import { ContactForm } from '../features/forms/contact-form';
import { FreeGuidePopup } from '../features/forms/free-guide-popup';
import { OrderForm } from '../features/forms/order-form';
import { scrollToSection } from '../lib/scroll';
import { BenefitsSection } from './home/benefits-section';
import { FinalCtaSection } from './home/final-cta-section';
import { HeroSection } from './home/hero-section';
import { ProblemSection } from './home/problem-section';
import { ProductSections } from './home/product-sections';
import { SolutionSection } from './home/solution-section';
import { TestimonialsSection } from './home/testimonials-section';
import { useStoreContent } from '../routing/public-config';

const HASH_SCROLL_DELAY_MS = 100;

/** Scrolls to the section a link such as `#/#order-form` names, once the page has settled. */
function useScrollToHashSection() {
  const { hash } = useLocation();
  useEffect(() => {
    const id = decodeURIComponent(hash.replace(/^#/, ''));
    if (!id) return;
    const timer = window.setTimeout(() => scrollToSection(id), HASH_SCROLL_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [hash]);
}

export function HomePage() {
  const { product } = useStoreContent();
  usePageView('home');
  useScrollToHashSection();
  return (
    <>
      <header className="bg-sage-100">
        <div className="mx-auto flex max-w-6xl items-center gap-3 px-6 py-4">
          <LogoMark />
          <p className="font-serif text-lg text-sage-800">{product.name}</p>
        </div>
      </header>
      <main>
        <HeroSection />
        <ProblemSection />
        <SolutionSection />
        <ProductSections />
        <BenefitsSection />
        <TestimonialsSection />
        <FinalCtaSection />
        <section id="order-form" aria-label="Order form" className="scroll-mt-4 bg-white py-20">
          <div className="px-4 sm:px-6">
            <div className={formCard}>
              <OrderForm />
            </div>
          </div>
        </section>
        <section
          id="contact-form"
          aria-label="Contact form"
          className="scroll-mt-4 bg-sand-100 py-20"
        >
          <div className="px-4 sm:px-6">
            <div className={formCard}>
              <ContactForm />
            </div>
          </div>
        </section>
      </main>
      <SiteFooter />
      <FreeGuidePopup />
    </>
  );
}
