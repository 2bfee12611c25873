import { useSyncExternalStore } from 'react';
import { hasGlobalPrivacyControl } from '../analytics/analytics';
import { usePageView } from '../analytics/use-page-view';
import { LastUpdated } from '../components/last-updated';
import { PolicyText } from '../components/rich-text';
import { StaticPage } from '../components/static-page';
import { useStoreContent } from '../routing/public-config';

const noSubscription = () => () => {};

/** Tells visitors whether their browser sends Global Privacy Control, and what that changes. */
function GpcStatus() {
  const gpc = useSyncExternalStore(noSubscription, hasGlobalPrivacyControl, () => false);
  return (
    <p className="rounded-2xl border border-sage-200 bg-sage-50 p-4" role="status">
      {gpc
        ? 'Your browser is sending the Global Privacy Control signal: we have treated it as your opt-out, so your browser sends us no visit statistics at all, and even the in-browser analytics notes are switched off.'
        : 'Your browser is not sending the Global Privacy Control signal right now.'}
    </p>
  );
}

export function PrivacyPolicyPage() {
  usePageView('privacy_policy');
  const { policies } = useStoreContent();
  return (
    <StaticPage title="Privacy Policy" lead={<LastUpdated />}>
      <div className="mt-8">
        <GpcStatus />
      </div>
      <PolicyText source={policies.privacy} />
    </StaticPage>
  );
}
