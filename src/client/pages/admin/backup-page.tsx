import { CircleAlert, CircleCheck, Download } from 'lucide-react';
import { useState } from 'react';
import { adminPrimaryButton } from '../../components/admin-styles';
import { Spinner } from '../../components/spinner';
import { RequestError } from '../../lib/api-client';
import { backupMessages, downloadBackup } from '../../features/backup/download-backup';
import { bannerTones } from '../../components/styles';

type State =
  | { status: 'idle' }
  | { status: 'downloading' }
  | { status: 'saved'; name: string }
  | { status: 'failed'; message: string };

type BackupPageProps = {
  /** Fetches and saves the file; the real download unless a test says otherwise. */
  download?: () => Promise<string>;
};

const code = 'rounded bg-sand-100 px-1.5 py-0.5 font-mono text-[0.8125rem] text-sage-900';

/** The admin's Backup page: one button that downloads the whole database as one file. */
export function BackupPage({ download = downloadBackup }: BackupPageProps) {
  const [state, setState] = useState<State>({ status: 'idle' });

  async function start() {
    setState({ status: 'downloading' });
    try {
      setState({ status: 'saved', name: await download() });
    } catch (error) {
      setState({
        status: 'failed',
        message: error instanceof RequestError ? error.message : backupMessages.failed,
      });
    }
  }

  const busy = state.status === 'downloading';
  return (
    <section aria-labelledby="backup-heading" className="max-w-3xl">
      <div className="mb-6">
        <h2 id="backup-heading" className="text-2xl font-semibold text-sage-800">
          Backup
        </h2>
        <p className="mt-1 text-ink-muted">
          Keep a copy of everything the site stores, taken while it keeps running.
        </p>
      </div>

      <div className="rounded-2xl border border-sand-200 bg-white p-5 shadow-sm sm:p-6">
        <div className="flex flex-wrap items-center gap-x-4 gap-y-3">
          <button type="button" className={adminPrimaryButton} onClick={start} disabled={busy}>
            {busy ? <Spinner /> : <Download aria-hidden="true" className="size-4" />}
            {busy ? 'Preparing backup…' : 'Download backup'}
          </button>
          <div aria-live="polite" className="min-w-0 text-sm">
            {state.status === 'downloading' && (
              <p className="text-ink-muted">
                Taking a snapshot of every table; this can take a few seconds.
              </p>
            )}
            {state.status === 'saved' && (
              <p className="flex items-start gap-1.5 text-sage-800">
                <CircleCheck aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
                <span className="min-w-0 break-all">Saved {state.name} to your downloads.</span>
              </p>
            )}
          </div>
        </div>
        {state.status === 'failed' && (
          <p
            role="alert"
            className={`mt-4 flex items-start gap-2 rounded-lg border px-4 py-3 text-sm ${bannerTones.error}`}
          >
            <CircleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
            <span>{state.message}</span>
          </p>
        )}

        <h3 className="mt-6 text-base font-semibold text-sage-800">What it contains</h3>
        <p className="mt-1 text-sm text-ink-muted">
          One compressed file (<span className={code}>.jsonl.gz</span>) with every table: the
          visitors&apos; submissions and your notes, the admin accounts and their sign-in sessions,
          with the database version it came from and each table&apos;s row count. It holds personal
          data: keep it somewhere private.
        </p>

        <h3 className="mt-5 text-base font-semibold text-sage-800">How to restore</h3>
        <p className="mt-1 text-sm text-ink-muted">
          On the server, with the site stopped and pointed at a new, empty database, run{' '}
          <span className={code}>npm run db:restore -- --in FILE</span>. It refuses to write over
          existing data. To move to PostgreSQL instead, run{' '}
          <span className={code}>npm run db:copy -- --to postgres://…</span>.
        </p>
      </div>
    </section>
  );
}
