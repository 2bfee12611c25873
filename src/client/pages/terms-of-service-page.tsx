import { usePageView } from '../analytics/use-page-view';
import { Link } from '../routing/router';
import { formCard } from '../components/styles';
import { LastUpdated } from '../components/last-updated';
import { PolicySection, StaticPage } from '../components/static-page';
import { TermsFeedbackForm } from '../features/forms/terms-feedback-form';
import { paths } from '../../shared/paths';
import { product } from '../../shared/product';

export function TermsOfServicePage() {
  usePageView('terms_of_service');
  return (
    <StaticPage title="Terms of Service" lead={<LastUpdated />}>
      <PolicySection title="Agreement to Terms">
        <p>
          By using this website or buying the {product.name} you agree to these terms. Please read
          them together with our <Link to={paths.privacyPolicy}>Privacy Policy</Link>, which
          explains how we handle your information.
        </p>
      </PolicySection>
      <PolicySection title="Use of Digital Products">
        <p>
          Your purchase gives you a personal licence to use the bundle for personal, non-commercial
          use only.
        </p>
        <ul className="list-disc space-y-2 pl-6">
          <li>You may print the files for your own use as often as you like.</li>
          <li>You may not share, resell or redistribute the files, in whole or in part.</li>
          <li>All content is copyright protected and remains our property.</li>
        </ul>
      </PolicySection>
      <PolicySection title="Disclaimers">
        <p>
          The bundle is for informational and self-care purposes only. It is not medical or
          mental-health advice and does not replace a doctor, therapist or other qualified
          professional. If you are struggling, please reach out to a professional or a local support
          line.
        </p>
        <p>
          Purchases are covered by our <Link to={paths.refundPolicy}>Refund Policy</Link>.
        </p>
      </PolicySection>
      <PolicySection title="Questions & Feedback">
        <p>Have a question about these terms? Send it to us and we will get back to you.</p>
      </PolicySection>
      <div className={`${formCard} mt-8`}>
        <TermsFeedbackForm />
      </div>
    </StaticPage>
  );
}
