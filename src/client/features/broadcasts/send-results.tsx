import {
  PURCHASE_WINDOW_DAYS,
  type AdminBroadcast,
  type SendResults,
} from '../../../shared/broadcasts/broadcasts-api';
import { formatAmount } from '../../lib/format-amount';
import { formatDate } from '../../lib/format-date';

const count = (value: number) => value.toLocaleString();

/** Done (sent, failed or bounced) out of all recipients, in whole percent. */
export function percentDone(results: SendResults): number {
  if (results.recipients === 0) return 0;
  const done = results.recipients - results.remaining;
  return Math.min(100, Math.floor((done / results.recipients) * 100));
}

function Stat({ label, value, tone }: { label: string; value: string; tone?: 'bad' }) {
  return (
    <div className="min-w-0 rounded-xl border border-sand-200 bg-white px-4 py-3">
      <dt className="text-xs font-semibold tracking-wide text-ink-muted uppercase">{label}</dt>
      <dd
        className={`mt-1 text-xl font-semibold tabular-nums ${tone === 'bad' ? 'text-red-800' : 'text-ink'}`}
      >
        {value}
      </dd>
    </div>
  );
}

/** How far a send is: a bar and its counts; the rate and the estimated end while it sends. */
export function SendProgress({ broadcast }: { broadcast: AdminBroadcast }) {
  const percent = percentDone(broadcast);
  const sending = broadcast.status === 'sending';
  return (
    <div className="grid gap-4">
      <div>
        <div className="mb-1.5 flex items-baseline justify-between gap-3 text-sm">
          <span id={`progress-${broadcast.id}`} className="font-medium text-ink">
            {count(broadcast.recipients - broadcast.remaining)} of {count(broadcast.recipients)}{' '}
            done
          </span>
          <span className="font-semibold text-sage-800 tabular-nums">{percent}%</span>
        </div>
        <div
          role="progressbar"
          aria-labelledby={`progress-${broadcast.id}`}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent}
          className="h-2.5 overflow-hidden rounded-full bg-sand-200"
        >
          <div
            className={`h-full rounded-full transition-[width] duration-500 ${
              broadcast.status === 'paused' ? 'bg-amber-500' : 'bg-sage-600'
            }`}
            style={{ width: `${percent}%` }}
          />
        </div>
      </div>
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4">
        <Stat label="Recipients" value={count(broadcast.recipients)} />
        <Stat label="Sent" value={count(broadcast.sent)} />
        <Stat label="Remaining" value={count(broadcast.remaining)} />
        <Stat
          label="Failed"
          value={count(broadcast.failed)}
          tone={broadcast.failed > 0 ? 'bad' : undefined}
        />
        <Stat
          label="Bounced"
          value={count(broadcast.bounced)}
          tone={broadcast.bounced > 0 ? 'bad' : undefined}
        />
        <Stat
          label="Rate"
          value={
            sending && broadcast.ratePerSecond !== null
              ? `${broadcast.ratePerSecond.toLocaleString(undefined, { maximumFractionDigits: 1 })}/s`
              : '—'
          }
        />
        <Stat
          label="Estimated end"
          value={
            sending && broadcast.estimatedEnd ? formatDate(broadcast.estimatedEnd, 'short') : '—'
          }
        />
      </dl>
    </div>
  );
}

/** What the email brought: unsubscribes after it, and purchases and revenue, not opens. */
export function SendOutcome({
  results,
  currency,
}: {
  results: SendResults;
  currency: string | null;
}) {
  return (
    <div className="grid gap-2">
      <dl className="grid grid-cols-1 gap-3 min-[420px]:grid-cols-3">
        <Stat label="Purchases" value={count(results.purchases)} />
        <Stat label="Revenue" value={formatAmount(results.revenue, currency)} />
        <Stat label="Unsubscribed" value={count(results.unsubscribed)} />
      </dl>
      <p className="text-sm text-ink-muted">
        Verified paid orders by its recipients within {PURCHASE_WINDOW_DAYS} days of their email. No
        opens or clicks are tracked.
      </p>
    </div>
  );
}
