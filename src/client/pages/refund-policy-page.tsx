import { usePageView } from '../analytics/use-page-view';
import { Link } from '../routing/router';
import { formCard } from '../components/styles';
import { LastUpdated } from '../components/last-updated';
import { PolicySection, StaticPage } from '../components/static-page';
import { RefundForm } from '../features/forms/refund-form';
import { paths } from '../../shared/paths';
import { product } from '../../shared/product';

export function RefundPolicyPage() {
  usePageView('refund_policy');
  return (
    <StaticPage title="Refund Policy" lead={<LastUpdated />}>
      <p className="mt-8 rounded-2xl border border-clay-200 bg-clay-50 p-5 text-lg text-ink">
        <strong>All sales are final.</strong> Because the {product.name} is a digital product
        delivered instantly, we cannot offer refunds or exchanges once it has been purchased and
        downloaded.
      </p>
      <PolicySection title="Digital Product Policy">
        <p>
          Your purchase gives you immediate access to downloadable files. Digital files cannot be
          returned, so every sale is final: there are no refunds or exchanges once the bundle has
          been purchased and downloaded.
        </p>
        <p>
          If you are unsure whether the bundle is right for you, please{' '}
          <Link to={paths.contactUs}>contact us</Link> before buying. We are happy to answer any
          question first.
        </p>
      </PolicySection>
      <PolicySection title="Our Commitment">
        <p>
          We want you to love your bundle. If a file will not open, a download fails or something is
          missing, tell us and we will send you a working copy right away.
        </p>
      </PolicySection>
      <PolicySection title="Questions & Inquiries">
        <p>
          Have a question about a purchase or a refund request? Send it with the form below and we
          will reply as soon as possible.
        </p>
      </PolicySection>
      <div className={`${formCard} mt-8`}>
        <RefundForm />
      </div>
    </StaticPage>
  );
}
