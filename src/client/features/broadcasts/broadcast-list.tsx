import { ChevronRight, Mail, Plus } from 'lucide-react';
import type { AdminBroadcast } from '../../../shared/broadcasts/broadcasts-api';
import { adminPrimaryButton } from '../../components/admin-styles';
import { LoadFailed, PanelLoading } from '../../components/load-states';
import { formatAmount } from '../../lib/format-amount';
import { formatDate } from '../../lib/format-date';
import { useFetched } from '../../lib/use-fetched';
import type { BroadcastAdmin } from './broadcast-admin-client';
import { BroadcastStatusBadge } from './broadcast-status-badge';
import { usePolling } from './use-polling';
import { percentDone } from './send-results';

/** The time that matters for its status: when it starts, started or ended. */
function when(broadcast: AdminBroadcast): string {
  switch (broadcast.status) {
    case 'draft':
      return `Created ${formatDate(broadcast.createdAt, 'short')}`;
    case 'scheduled':
      return `Starts ${formatDate(broadcast.scheduledAt, 'short')}`;
    case 'sending':
    case 'paused':
      return `Started ${formatDate(broadcast.startedAt, 'short')}`;
    default:
      return `${broadcast.status === 'sent' ? 'Sent' : 'Ended'} ${formatDate(broadcast.finishedAt, 'short')}`;
  }
}

function Numbers({ broadcast, currency }: { broadcast: AdminBroadcast; currency: string | null }) {
  if (broadcast.status === 'draft' || broadcast.status === 'scheduled') return null;
  const live = broadcast.status === 'sending' || broadcast.status === 'paused';
  return (
    <span className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-ink-muted tabular-nums">
      <span>
        <strong className="font-semibold text-ink">{broadcast.sent.toLocaleString()}</strong> of{' '}
        {broadcast.recipients.toLocaleString()} sent
        {live ? ` (${percentDone(broadcast)}%)` : ''}
      </span>
      <span>
        <strong className="font-semibold text-ink">{broadcast.purchases}</strong>{' '}
        {broadcast.purchases === 1 ? 'purchase' : 'purchases'} ·{' '}
        {formatAmount(broadcast.revenue, currency)}
      </span>
    </span>
  );
}

/** How often the list is fetched again while one of its broadcasts sends. */
const LIST_POLL_MS = 5000;

/** Every broadcast, newest first, with its status and what it brought. */
export function BroadcastList({
  client,
  currency,
  onOpen,
  onNew,
}: {
  client: BroadcastAdmin;
  currency: string | null;
  onOpen(id: number): void;
  onNew(): void;
}) {
  const { data: rows, error, loading, reload } = useFetched('broadcasts', () => client.list());
  usePolling(
    (rows ?? []).some((row) => row.status === 'sending'),
    LIST_POLL_MS,
    reload,
  );
  return (
    <section
      aria-labelledby="broadcast-list-heading"
      aria-busy={loading}
      className="min-w-0 overflow-hidden rounded-2xl border border-sand-200 bg-white shadow-sm"
    >
      <div className="flex flex-wrap items-center justify-between gap-3 border-b border-sand-200 px-4 py-3 sm:px-6">
        <h3 id="broadcast-list-heading" className="text-lg font-semibold text-sage-800">
          Your broadcasts
        </h3>
        <button type="button" className={adminPrimaryButton} onClick={onNew}>
          <Plus aria-hidden="true" className="size-4" />
          New broadcast
        </button>
      </div>
      {error && !rows ? (
        <LoadFailed onRetry={reload}>Could not load the broadcasts: {error}</LoadFailed>
      ) : !rows ? (
        <PanelLoading>Loading broadcasts…</PanelLoading>
      ) : rows.length === 0 ? (
        <div className="flex flex-col items-center gap-3 px-4 py-12 text-center sm:px-6">
          <span className="flex size-12 items-center justify-center rounded-full bg-sage-50 text-sage-700">
            <Mail aria-hidden="true" className="size-6" />
          </span>
          <p className="font-semibold text-ink">No broadcasts yet</p>
          <p className="max-w-md text-sm text-ink-muted">
            Write to everyone who confirmed their subscription: news, a guide, an offer. You see
            what each email brings in purchases, not opens.
          </p>
        </div>
      ) : (
        <ul className="divide-y divide-sand-200">
          {rows.map((broadcast) => (
            <li key={broadcast.id}>
              <button
                type="button"
                onClick={() => onOpen(broadcast.id)}
                className="group flex w-full items-center gap-4 px-4 py-4 text-left transition-colors hover:bg-sand-50 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-sage-600 sm:px-6"
              >
                <span className="grid min-w-0 flex-1 gap-1.5">
                  <span className="flex flex-wrap items-center gap-x-3 gap-y-1">
                    <span className="font-semibold break-words text-ink">{broadcast.subject}</span>
                    <BroadcastStatusBadge status={broadcast.status} />
                  </span>
                  <span className="text-sm text-ink-muted">{when(broadcast)}</span>
                  <Numbers broadcast={broadcast} currency={currency} />
                </span>
                <ChevronRight
                  aria-hidden="true"
                  className="size-5 shrink-0 text-ink-muted transition-transform group-hover:translate-x-0.5"
                />
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
