import { formatDate } from '../../lib/format-date';
import type { DeliveryEntry, DeliveryState } from '../../../shared/mail/delivery-api';

export const stateLabels: Record<DeliveryState, string> = {
  sending: 'Sending',
  retrying: 'Retrying',
  sent: 'Sent',
  failed: 'Failed',
};

const stateStyles: Record<DeliveryState, string> = {
  sending: 'bg-sand-200 text-ink',
  retrying: 'bg-amber-100 text-amber-900',
  sent: 'bg-sage-100 text-sage-800',
  failed: 'bg-red-100 text-red-800',
};

/** The state as a coloured word, never colour alone. */
export function DeliveryStateBadge({ state }: { state: DeliveryState }) {
  return (
    <span
      className={`inline-flex rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap ${stateStyles[state]}`}
    >
      {stateLabels[state]}
    </span>
  );
}

/** One line on what happens next or what happened: the next try, the send time, the error. */
export function deliveryDetail(entry: DeliveryEntry): string {
  switch (entry.state) {
    case 'sent':
      return entry.sentAt ? `Sent ${formatDate(entry.sentAt)}` : 'Sent';
    case 'sending':
      return 'Sending now';
    case 'retrying':
      return entry.nextAttemptAt
        ? `Next attempt ${formatDate(entry.nextAttemptAt)}`
        : 'Next attempt soon';
    case 'failed':
      return `Gave up after ${entry.attempts} attempts`;
  }
}
