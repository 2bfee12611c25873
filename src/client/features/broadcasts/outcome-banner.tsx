import { CircleAlert, CircleCheck } from 'lucide-react';
import { bannerTones } from '../../components/styles';

export type Outcome = { tone: 'success' | 'error'; text: string };

/** What an action did, or why it failed; read out when it appears. */
export function OutcomeBanner({ outcome }: { outcome: Outcome }) {
  const Icon = outcome.tone === 'error' ? CircleAlert : CircleCheck;
  return (
    <p
      role={outcome.tone === 'error' ? 'alert' : 'status'}
      className={`flex items-start gap-2 rounded-lg border px-4 py-3 text-sm ${bannerTones[outcome.tone]}`}
    >
      <Icon aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
      <span>{outcome.text}</span>
    </p>
  );
}
