import type { BroadcastStatus } from '../../../shared/broadcasts/broadcasts-api';

export const statusLabels: Record<BroadcastStatus, string> = {
  draft: 'Draft',
  scheduled: 'Scheduled',
  sending: 'Sending',
  paused: 'Paused',
  cancelled: 'Cancelled',
  sent: 'Sent',
};

const statusStyles: Record<BroadcastStatus, string> = {
  draft: 'bg-sand-200 text-ink',
  scheduled: 'bg-clay-100 text-clay-700',
  sending: 'bg-sage-700 text-white',
  paused: 'bg-amber-100 text-amber-900',
  cancelled: 'bg-red-100 text-red-800',
  sent: 'bg-sage-100 text-sage-800',
};

/** The status as a coloured word, never colour alone. */
export function BroadcastStatusBadge({ status }: { status: BroadcastStatus }) {
  return (
    <span
      className={`inline-flex rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap ${statusStyles[status]}`}
    >
      {statusLabels[status]}
    </span>
  );
}
