import { SiteFooter } from '../components/site-footer';
import { ContactForm } from '../features/forms/contact-form';
import { FreeGuidePopup } from '../features/forms/free-guide-popup';
import { OrderForm } from '../features/forms/order-form';
import { product } from '../../shared/product';

export function HomePage() {
  return (
    <>
      <main className="mx-auto max-w-5xl px-6 py-20">
        <h1 className="max-w-3xl text-4xl font-semibold tracking-tight text-sage-800 sm:text-5xl">
          Find your calm in 30 days with the {product.name}
        </h1>
        <p className="mt-6 max-w-2xl text-lg text-ink-muted">
          A 30-day mindfulness and stress-relief program you download once and keep for life.
        </p>
        <section id="order-form">
          <OrderForm />
        </section>
        <section id="contact-form">
          <ContactForm />
        </section>
      </main>
      <SiteFooter />
      <FreeGuidePopup />
    </>
  );
}
