import { RotateCw, TriangleAlert } from 'lucide-react';
import { useState } from 'react';
import {
  deliveryFilters,
  type DeliveryEntry,
  type DeliveryFilter,
  type MailQueueHealth,
} from '../../../shared/mail/delivery-api';
import { adminSecondaryButton } from '../../components/button-styles';
import { Pager } from '../../components/pager';
import { LoadFailed, PanelLoading } from '../../components/load-states';
import { Spinner } from '../../components/spinner';
import type { DeliveryApi } from './delivery-api-client';
import {
  DeliveryStateBadge,
  deliveryDetail,
  formatTime,
  stateLabels,
} from './delivery-state-badge';
import { useDeliveryPage } from './use-delivery-page';

const filterLabel = (filter: DeliveryFilter) => (filter === 'all' ? 'All' : stateLabels[filter]);

/** Where an email came from, as the owner knows it: the table's record. */
const sourceLabel = (entry: DeliveryEntry) =>
  `${entry.sourceTable.replace(/_/g, ' ')} #${entry.sourceId}`;

/** "12 minutes", "3 hours": how long the oldest email has waited. */
function waitedFor(seconds: number): string {
  const [amount, unit] =
    seconds < 7_200 ? [Math.floor(seconds / 60), 'minute'] : [Math.floor(seconds / 3_600), 'hour'];
  return `${amount} ${unit}${amount === 1 ? '' : 's'}`;
}

/** Shown when the oldest email still waiting is late (MAIL_LATE_SECONDS, as /readyz says). */
function LateNotice({ queue }: { queue: MailQueueHealth }) {
  return (
    <div
      role="alert"
      className="flex gap-2 border-b border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900 sm:px-6"
    >
      <TriangleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
      <p>
        <strong>Emails are late.</strong> The oldest of the {queue.pending} waiting was queued{' '}
        {waitedFor(queue.oldestPendingSeconds)} ago. Every record is stored; the notifications go
        out once the mail server answers. See the last error of the retrying emails, and check the
        mail server settings (SMTP_URL).
      </p>
    </div>
  );
}

/**
 * Every email about a stored record, newest first: its state, attempts, next attempt or send
 * time and last error, with a filter by state, paging, and a Resend action.
 */
export function DeliveriesPanel({ api }: { api: DeliveryApi }) {
  const [filter, setFilter] = useState<DeliveryFilter>('all');
  const [page, setPage] = useState(0);
  const { data, loading, error, reload } = useDeliveryPage(api, filter, page);
  const [resending, setResending] = useState<number | null>(null);
  const [notice, setNotice] = useState('');

  async function resend(entry: DeliveryEntry) {
    setResending(entry.id);
    setNotice('');
    try {
      await api.resend(entry.id);
      setNotice(`The email to ${entry.recipient} was queued again.`);
      reload();
    } catch (failure) {
      setNotice(
        `Could not resend: ${failure instanceof Error ? failure.message : String(failure)}`,
      );
    } finally {
      setResending(null);
    }
  }

  const total = data?.counts
    ? Object.values(data.counts).reduce((sum, count) => sum + count, 0)
    : undefined;

  return (
    <section
      aria-label="Email deliveries"
      aria-busy={loading}
      className="min-w-0 overflow-hidden rounded-2xl border border-sand-200 bg-white shadow-sm"
    >
      <div className="flex flex-wrap items-center justify-between gap-3 border-b border-sand-200 px-4 py-4 sm:px-6">
        <div role="group" aria-label="Filter by state" className="flex flex-wrap gap-1.5">
          {deliveryFilters.map((option) => {
            const count = option === 'all' ? total : data?.counts[option];
            const selected = option === filter;
            return (
              <button
                key={option}
                type="button"
                aria-pressed={selected}
                onClick={() => {
                  setFilter(option);
                  setPage(0);
                }}
                className={`rounded-full border px-3 py-1 text-sm font-medium transition-colors ${
                  selected
                    ? 'border-sage-700 bg-sage-700 text-white'
                    : 'border-sand-300 bg-white text-sage-800 hover:bg-sand-100'
                }`}
              >
                {filterLabel(option)}
                {count !== undefined ? (
                  <>
                    {' '}
                    <span className="ml-1 tabular-nums">{count}</span>
                  </>
                ) : null}
              </button>
            );
          })}
        </div>
        <button type="button" onClick={reload} disabled={loading} className={adminSecondaryButton}>
          {loading ? <Spinner /> : <RotateCw aria-hidden="true" className="size-4" />}
          Refresh
        </button>
      </div>

      {data?.queue.late ? <LateNotice queue={data.queue} /> : null}

      {notice ? (
        <p
          role="status"
          className="border-b border-sand-200 bg-sage-50 px-4 py-2 text-sm text-sage-800 sm:px-6"
        >
          {notice}
        </p>
      ) : null}

      {error ? (
        <LoadFailed onRetry={reload}>Could not load the deliveries: {error}</LoadFailed>
      ) : !data ? (
        <PanelLoading>Loading deliveries…</PanelLoading>
      ) : data.entries.length === 0 ? (
        <p className="px-4 py-10 text-center text-ink-muted">
          {filter === 'all'
            ? 'No emails yet. Each form notification will be listed here.'
            : `No ${filterLabel(filter).toLowerCase()} emails.`}
        </p>
      ) : (
        <div className={loading ? 'opacity-60 transition-opacity' : undefined}>
          <ul className="divide-y divide-sand-200">
            {data.entries.map((entry) => (
              <li
                key={entry.id}
                className="flex flex-col gap-2 px-4 py-3 sm:flex-row sm:items-start sm:gap-4 sm:px-6"
              >
                <div className="min-w-0 flex-1">
                  <div className="flex flex-wrap items-center gap-2">
                    <DeliveryStateBadge state={entry.state} />
                    <span className="truncate font-medium text-ink">{entry.subject}</span>
                  </div>
                  <p className="mt-1 text-sm text-ink-muted">
                    To {entry.recipient} · {sourceLabel(entry)} · queued{' '}
                    {formatTime(entry.createdAt)} · {entry.attempts}{' '}
                    {entry.attempts === 1 ? 'attempt' : 'attempts'}
                  </p>
                  <p className="text-sm text-ink-muted">{deliveryDetail(entry)}</p>
                  {entry.state !== 'sent' && entry.lastError ? (
                    <p className="mt-1 text-sm break-words text-red-800">
                      Last error: {entry.lastError}
                    </p>
                  ) : null}
                </div>
                {entry.state === 'sending' ? null : (
                  <button
                    type="button"
                    onClick={() => void resend(entry)}
                    disabled={resending !== null}
                    aria-label={`Resend email ${entry.id} to ${entry.recipient}`}
                    className={`${adminSecondaryButton} self-start`}
                  >
                    <RotateCw aria-hidden="true" className="size-4" />
                    Resend
                  </button>
                )}
              </li>
            ))}
          </ul>
          <Pager
            page={data.page}
            count={data.count}
            pageSize={data.pageSize}
            unit={data.count === 1 ? 'email' : 'emails'}
            disabled={loading}
            onPage={setPage}
          />
        </div>
      )}
    </section>
  );
}
