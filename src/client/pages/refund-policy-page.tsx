import { usePageView } from '../analytics/use-page-view';
import { formCard } from '../components/styles';
import { LastUpdated } from '../components/last-updated';
import { PolicyText } from '../components/rich-text';
import { StaticPage } from '../components/static-page';
import { RefundForm } from '../features/forms/refund-form';
import { useStoreContent } from '../routing/public-config';

export function RefundPolicyPage() {
  usePageView('refund_policy');
  const { policies } = useStoreContent();
  return (
    <StaticPage title="Refund Policy" lead={<LastUpdated />}>
      <PolicyText source={policies.refund} />
      <div className={`${formCard} mt-8`}>
        <RefundForm />
      </div>
    </StaticPage>
  );
}
