import { Download, Upload, UserMinus } from 'lucide-react';
import { useId, useState } from 'react';
import {
  listSources,
  listStatuses,
  SUBSCRIBERS_PAGE_SIZE,
  type AdminSubscriber,
  type ImportReport,
} from '../../../shared/list/list-api';
import { errorMessage } from '../../../shared/error-message';
import {
  adminInput,
  adminPrimaryButton,
  adminSecondaryButton,
} from '../../components/admin-styles';
import { LoadFailed, PanelLoading } from '../../components/load-states';
import { Pager } from '../../components/pager';
import { SearchField } from '../../components/search-field';
import { formatDate } from '../../lib/format-date';
import { useDebounced } from '../../lib/use-debounced';
import { useFetched } from '../../lib/use-fetched';
import { subscriberAdmin, type SubscriberFilter } from './subscriber-admin-client';

const headerCell = 'px-4 py-3 text-xs font-semibold tracking-wide text-ink-muted uppercase';
const cell = 'px-4 py-3 align-top';

export const unsubscribeConfirmation = (subscriber: AdminSubscriber) =>
  `Unsubscribe ${subscriber.email}? No list email will be sent to this address.`;

type Notice = { kind: 'ok' | 'error'; text: string };

function reportText(report: ImportReport): string {
  const what = `${report.rows} rows: ${report.valid} new, ${report.duplicates} already known or repeated, ${report.invalid} without a valid address.`;
  return report.dryRun
    ? `Checked ${what} Nothing was added yet.`
    : `Imported ${what} Each new address was sent a confirmation email.`;
}

/** A CSV of an existing list: checked first (dry run), then imported as pending. */
function ImportForm({ onImported }: { onImported(): void }) {
  const id = useId();
  const [csv, setCsv] = useState('');
  const [checked, setChecked] = useState<ImportReport | null>(null);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<Notice | null>(null);

  async function run(dryRun: boolean) {
    setBusy(true);
    setNotice(null);
    try {
      const report = await subscriberAdmin.importCsv(csv, dryRun);
      setNotice({ kind: 'ok', text: reportText(report) });
      if (dryRun) setChecked(report);
      else {
        setChecked(null);
        setCsv('');
        onImported();
      }
    } catch (failure) {
      setNotice({ kind: 'error', text: errorMessage(failure) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <details className="border-b border-sand-200 px-4 py-3 sm:px-6">
      <summary className="cursor-pointer text-sm font-semibold text-sage-800">
        Import a list (CSV)
      </summary>
      <div className="mt-3 space-y-3">
        <p className="text-sm text-ink-muted">
          A header line with an <code>email</code> column (and <code>name</code> if you have it).
          New addresses get a confirmation email and join only once they click it.
        </p>
        <label htmlFor={`${id}-file`} className="block text-sm font-medium text-ink">
          CSV file
        </label>
        <input
          id={`${id}-file`}
          type="file"
          accept=".csv,text/csv"
          className="block text-sm"
          disabled={busy}
          onChange={(event) => {
            const file = event.target.files?.[0];
            setChecked(null);
            if (file) void file.text().then(setCsv);
          }}
        />
        <div className="flex flex-wrap gap-2">
          <button
            type="button"
            className={adminSecondaryButton}
            disabled={busy || csv === ''}
            onClick={() => void run(true)}
          >
            Check the file
          </button>
          <button
            type="button"
            className={adminPrimaryButton}
            disabled={busy || checked === null || checked.valid === 0}
            onClick={() => void run(false)}
          >
            <Upload aria-hidden="true" className="size-4" />
            Import {checked ? checked.valid : ''} new
          </button>
        </div>
        {notice ? (
          <p
            role={notice.kind === 'error' ? 'alert' : 'status'}
            className={notice.kind === 'error' ? 'text-sm text-red-800' : 'text-sm text-sage-800'}
          >
            {notice.text}
          </p>
        ) : null}
      </div>
    </details>
  );
}

/**
 * The mailing list's subscribers (DESIGN.md "The mailing list"): counts, search, each one's
 * consent history, unsubscribe by hand, export and import.
 */
export function SubscribersPanel() {
  const id = useId();
  const [status, setStatus] = useState<SubscriberFilter>('all');
  const [text, setText] = useState('');
  const [q, setQ] = useState('');
  const [page, setPage] = useState(0);
  const { data, loading, error, reload } = useFetched(`${status}:${page}:${q}`, () =>
    subscriberAdmin.list({ page, status, q }),
  );
  const [notice, setNotice] = useState<Notice | null>(null);

  useDebounced(text.trim(), q, (wanted) => {
    setQ(wanted);
    setPage(0);
  });

  async function unsubscribe(subscriber: AdminSubscriber) {
    if (!window.confirm(unsubscribeConfirmation(subscriber))) return;
    try {
      await subscriberAdmin.unsubscribe(subscriber.id);
      setNotice({ kind: 'ok', text: `${subscriber.email} is unsubscribed.` });
      reload();
    } catch (failure) {
      setNotice({ kind: 'error', text: errorMessage(failure) });
    }
  }

  return (
    <section
      aria-label="Subscriber list"
      aria-busy={loading}
      className="min-w-0 overflow-hidden rounded-2xl border border-sand-200 bg-white shadow-sm"
    >
      {data ? (
        <dl className="flex flex-wrap gap-x-6 gap-y-2 border-b border-sand-200 px-4 py-3 text-sm sm:px-6">
          {listStatuses.map((key) => (
            <div key={key} className="flex gap-1.5">
              <dt className="text-ink-muted capitalize">{key}</dt>
              <dd className="font-semibold">{data.counts.status[key]}</dd>
            </div>
          ))}
          {listSources.map((key) => (
            <div key={key} className="flex gap-1.5">
              <dt className="text-ink-muted">from {key}</dt>
              <dd className="font-semibold">{data.counts.source[key]}</dd>
            </div>
          ))}
        </dl>
      ) : null}
      <div className="flex flex-wrap items-end gap-x-4 gap-y-3 border-b border-sand-200 bg-sand-50/60 px-4 py-3 sm:px-6">
        <SearchField
          id={`${id}-q`}
          label="Search name or email"
          value={text}
          maxLength={200}
          onChange={setText}
        />
        <div className="flex flex-col gap-1">
          <label htmlFor={`${id}-status`} className="text-xs font-medium text-ink-muted">
            Status
          </label>
          <select
            id={`${id}-status`}
            value={status}
            onChange={(event) => {
              setStatus(event.target.value as SubscriberFilter);
              setPage(0);
            }}
            className={adminInput}
          >
            <option value="all">All</option>
            {listStatuses.map((key) => (
              <option key={key} value={key}>
                {key}
              </option>
            ))}
          </select>
        </div>
        <a href={subscriberAdmin.exportUrl} className={adminSecondaryButton} download>
          <Download aria-hidden="true" className="size-4" />
          Export CSV
        </a>
      </div>
      <ImportForm onImported={reload} />
      {notice ? (
        <p
          role={notice.kind === 'error' ? 'alert' : 'status'}
          className={`px-4 py-2 text-sm sm:px-6 ${notice.kind === 'error' ? 'text-red-800' : 'text-sage-800'}`}
        >
          {notice.text}
        </p>
      ) : null}
      {error && !data ? (
        <LoadFailed onRetry={reload}>Could not load the subscribers: {error}</LoadFailed>
      ) : !data ? (
        <PanelLoading>Loading subscribers…</PanelLoading>
      ) : data.rows.length === 0 ? (
        <p className="px-4 py-8 text-center text-ink-muted sm:px-6">
          {status !== 'all' || q !== ''
            ? 'No subscriber matches.'
            : 'No subscribers yet. They join from the free guide, the checkout or an import.'}
        </p>
      ) : (
        <div className={loading ? 'opacity-60 transition-opacity' : undefined}>
          <div
            role="group"
            aria-label="Subscribers table"
            tabIndex={0}
            className="overflow-x-auto focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-sage-600"
          >
            <table className="w-max min-w-full border-collapse text-left text-sm text-ink">
              <caption className="sr-only">Subscribers, newest first</caption>
              <thead className="bg-sand-50">
                <tr className="border-b border-sand-200">
                  <th scope="col" className={headerCell}>
                    Subscriber
                  </th>
                  <th scope="col" className={headerCell}>
                    Status
                  </th>
                  <th scope="col" className={headerCell}>
                    Consent history
                  </th>
                  <th scope="col" className={headerCell}>
                    Actions
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-sand-200">
                {data.rows.map((subscriber) => (
                  <tr key={subscriber.id}>
                    <td className={cell}>
                      <div className="font-medium">{subscriber.email}</div>
                      <div className="text-ink-muted">{subscriber.name || '—'}</div>
                    </td>
                    <td className={cell}>
                      <div className="capitalize">{subscriber.status}</div>
                      <div className="text-ink-muted">from {subscriber.source}</div>
                    </td>
                    <td className={cell}>
                      <ol className="space-y-0.5">
                        {subscriber.events.map((event, index) => (
                          <li key={index}>
                            <span className="font-medium">{event.kind}</span>{' '}
                            <span className="text-ink-muted">
                              {formatDate(event.createdAt, 'short')} · {event.source}
                              {event.wordingVersion !== null
                                ? ` · wording v${event.wordingVersion}`
                                : ''}
                            </span>
                          </li>
                        ))}
                      </ol>
                    </td>
                    <td className={cell}>
                      {subscriber.status === 'confirmed' || subscriber.status === 'pending' ? (
                        <button
                          type="button"
                          className={`${adminSecondaryButton} px-2.5 py-1.5 text-xs whitespace-nowrap`}
                          onClick={() => void unsubscribe(subscriber)}
                          aria-label={`Unsubscribe ${subscriber.email}`}
                        >
                          <UserMinus aria-hidden="true" className="size-3.5" />
                          Unsubscribe
                        </button>
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager
            page={page}
            count={data.count}
            pageSize={SUBSCRIBERS_PAGE_SIZE}
            unit="subscribers"
            disabled={loading}
            onPage={setPage}
          />
        </div>
      )}
    </section>
  );
}
