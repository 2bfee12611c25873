import { usePageView } from '../analytics/use-page-view';
import { formCard } from '../components/styles';
import { StaticPage } from '../components/static-page';
import { ContactForm } from '../features/forms/contact-form';

export function ContactUsPage() {
  usePageView('contact_us');
  return (
    <StaticPage
      title="Get in Touch"
      lead={
        <p className="text-lg">
          Questions about the bundle, your order or anything else? Our team will reply as soon as
          possible.
        </p>
      }
    >
      <div className="mt-10">
        <ContactForm className={formCard} />
      </div>
    </StaticPage>
  );
}
