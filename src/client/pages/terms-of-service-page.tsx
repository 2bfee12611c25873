import { usePageView } from '../analytics/use-page-view';
import { formCard } from '../components/styles';
import { LastUpdated } from '../components/last-updated';
import { PolicyText } from '../components/rich-text';
import { StaticPage } from '../components/static-page';
import { TermsFeedbackForm } from '../features/forms/terms-feedback-form';
import { useStoreContent } from '../routing/public-config';

export function TermsOfServicePage() {
  usePageView('terms_of_service');
  const { policies } = useStoreContent();
  return (
    <StaticPage title="Terms of Service" lead={<LastUpdated />}>
      <PolicyText source={policies.terms} />
      <div className={`${formCard} mt-8`}>
        <TermsFeedbackForm />
      </div>
    </StaticPage>
  );
}
