import { RotateCcw } from 'lucide-react';
import { useState } from 'react';
import {
  auditPath,
  auditRestorePath,
  isRestorable,
  type AuditEntry,
  type AuditPage,
  type AuditRestored,
} from '../../../shared/admin/audit-api';
import { adminSecondaryButton } from '../../components/admin-styles';
import { Pager } from '../../components/pager';
import { LoadFailed } from '../../components/load-states';
import { Spinner } from '../../components/spinner';
import { api } from '../../lib/api-client';
import { formatDate } from '../../lib/format-date';
import { useFetched } from '../../lib/use-fetched';
import { errorMessage } from '../../../shared/error-message';

const actionNames: Record<AuditEntry['action'], string> = {
  create: 'Created',
  update: 'Updated',
  delete: 'Deleted',
  bulk_delete: 'Bulk deleted',
  restore: 'Restored',
  erase: 'Erased a person',
  resend: 'Resent',
  revoke: 'Revoked links',
  upload: 'Uploaded',
  publish: 'Published',
  import: 'Imported subscribers',
  unsubscribe: 'Unsubscribed',
};

const actionLooks: Record<AuditEntry['action'], string> = {
  create: 'bg-sage-100 text-sage-800',
  update: 'bg-sand-100 text-ink',
  delete: 'bg-red-50 text-red-800',
  bulk_delete: 'bg-red-50 text-red-800',
  restore: 'bg-sage-100 text-sage-800',
  erase: 'bg-red-50 text-red-800',
  resend: 'bg-sand-100 text-ink',
  revoke: 'bg-red-50 text-red-800',
  upload: 'bg-sage-100 text-sage-800',
  publish: 'bg-sage-100 text-sage-800',
  import: 'bg-sage-100 text-sage-800',
  unsubscribe: 'bg-sand-100 text-ink',
};

function rowsText(entry: AuditEntry): string {
  const count = entry.rowIds.length;
  if (count === 0) return '';
  const ids = entry.rowIds.slice(0, 8).join(', ');
  return `${count === 1 ? 'row' : `${count} rows`} ${ids}${count > 8 ? ', …' : ''}`;
}

/** A publish of an earlier version's content keeps that version as its "before". */
function publishedFrom(entry: AuditEntry): string {
  const version = entry.action === 'publish' ? entry.before?.[0]?.version : undefined;
  return typeof version === 'number' ? `(version ${version} restored)` : '';
}

function Change({ title, rows }: { title: string; rows: unknown[] | null }) {
  if (!rows) return null;
  return (
    <div className="min-w-0">
      <h3 className="text-xs font-semibold tracking-wide text-ink-muted uppercase">{title}</h3>
      {/* Focusable, so a keyboard can scroll a long change. */}
      <pre
        tabIndex={0}
        className="mt-1 max-h-72 overflow-auto rounded-lg bg-sand-50 p-3 text-xs break-words whitespace-pre-wrap text-ink"
      >
        {JSON.stringify(rows, null, 2)}
      </pre>
    </div>
  );
}

/** Every admin change, newest first, with who and when, before and after, and Restore. */
export function ActivityPage() {
  const [page, setPage] = useState(0);
  const [notice, setNotice] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null);
  const [restoring, setRestoring] = useState<number | null>(null);
  const fetched = useFetched(String(page), () => api.get<AuditPage>(`${auditPath()}?page=${page}`));
  const { error, loading, reload } = fetched;
  // A failed fetch shows the failure alone until a fetch succeeds.
  const data = error ? undefined : fetched.data;

  async function restore(entry: AuditEntry) {
    setRestoring(entry.id);
    setNotice(null);
    try {
      const answer = await api.post<AuditRestored>(auditRestorePath(entry.id), {});
      setNotice({
        kind: 'ok',
        text: `Restored ${answer.restored} ${answer.restored === 1 ? 'row' : 'rows'} of ${entry.tableName}.`,
      });
      reload();
    } catch (error) {
      setNotice({ kind: 'error', text: errorMessage(error) });
    } finally {
      setRestoring(null);
    }
  }

  return (
    <section aria-labelledby="activity-heading" aria-busy={loading}>
      <div className="mb-6">
        <h2 id="activity-heading" className="text-2xl font-semibold text-sage-800">
          Activity
        </h2>
        <p className="mt-1 text-ink-muted">
          Every change made in the admin: who, when, and the rows before and after. A delete can be
          restored.
        </p>
      </div>
      {notice ? (
        <p
          role={notice.kind === 'error' ? 'alert' : 'status'}
          className={`mb-4 rounded-xl border px-4 py-3 text-sm ${
            notice.kind === 'error'
              ? 'border-red-300 bg-red-50 text-red-800'
              : 'border-sage-300 bg-sage-50 text-sage-800'
          }`}
        >
          {notice.text}
        </p>
      ) : null}
      {error ? (
        <LoadFailed onRetry={reload} className="rounded-2xl">
          Could not load the activity: {error}
        </LoadFailed>
      ) : !data ? (
        <div
          role="status"
          className="flex items-center justify-center gap-3 rounded-2xl border border-sand-200 bg-white px-6 py-16 text-ink-muted shadow-sm"
        >
          <Spinner className="size-6 text-sage-600" />
          Loading activity…
        </div>
      ) : data.rows.length === 0 ? (
        <p className="rounded-2xl border border-sand-200 bg-white px-6 py-10 text-center text-ink-muted shadow-sm">
          No admin changes yet.
        </p>
      ) : (
        <div className="overflow-hidden rounded-2xl border border-sand-200 bg-white shadow-sm">
          <ol className={`divide-y divide-sand-200 ${loading ? 'opacity-60' : ''}`}>
            {data.rows.map((entry) => (
              <li key={entry.id} className="px-4 py-4 sm:px-6">
                <div className="flex flex-wrap items-start justify-between gap-3">
                  <div className="min-w-0">
                    <p className="flex flex-wrap items-center gap-2 text-sm">
                      <span
                        className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${actionLooks[entry.action]}`}
                      >
                        {actionNames[entry.action]}
                      </span>
                      {entry.tableName ? (
                        <span className="font-medium text-sage-800">{entry.tableName}</span>
                      ) : null}
                      <span className="text-ink-muted">{rowsText(entry)}</span>
                      {publishedFrom(entry) ? (
                        <span className="text-ink-muted">{publishedFrom(entry)}</span>
                      ) : null}
                    </p>
                    <p className="mt-1 text-sm break-all text-ink-muted">
                      {entry.adminEmail} ·{' '}
                      <time dateTime={entry.createdAt}>{formatDate(entry.createdAt)}</time>
                      {entry.restoredAt ? (
                        <>
                          {' '}
                          · restored{' '}
                          <time dateTime={entry.restoredAt}>{formatDate(entry.restoredAt)}</time>
                        </>
                      ) : null}
                    </p>
                  </div>
                  {isRestorable(entry) ? (
                    <button
                      type="button"
                      disabled={restoring !== null}
                      onClick={() => void restore(entry)}
                      aria-label={`Restore ${rowsText(entry)} of ${entry.tableName}`}
                      className={adminSecondaryButton}
                    >
                      <RotateCcw aria-hidden="true" className="size-4" />
                      Restore
                    </button>
                  ) : null}
                </div>
                {entry.before || entry.after ? (
                  <details className="mt-2">
                    <summary className="cursor-pointer text-sm font-medium text-sage-800">
                      Before and after
                    </summary>
                    <div className="mt-2 grid gap-3 md:grid-cols-2">
                      <Change title="Before" rows={entry.before} />
                      <Change title="After" rows={entry.after} />
                    </div>
                  </details>
                ) : null}
              </li>
            ))}
          </ol>
          <Pager
            page={page}
            count={data.count}
            pageSize={data.pageSize}
            unit="entries"
            disabled={loading}
            onPage={setPage}
          />
        </div>
      )}
    </section>
  );
}
