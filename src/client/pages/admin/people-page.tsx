import { Download, Search, Trash2 } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import {
  eraseConfirmationMatches,
  MAX_EMAIL_LENGTH,
  peopleErasePath,
  peoplePath,
  type PersonErased,
  type PersonRecords,
} from '../../../shared/admin/people-api';
import {
  adminInput,
  adminPrimaryButton,
  adminSecondaryButton,
} from '../../components/admin-styles';
import { Spinner } from '../../components/spinner';
import { api } from '../../lib/api-client';
import { downloadFile } from '../../lib/download-file';
import { errorMessage } from '../../../shared/error-message';
import { bannerTones } from '../../components/styles';

type Lookup =
  | { status: 'idle' }
  | { status: 'loading'; email: string }
  | { status: 'found'; records: PersonRecords }
  | { status: 'failed'; message: string };

/** The file a person's records download as. */
export function personFileName(email: string): string {
  return `person-${email.replace(/[^A-Za-z0-9@._-]/g, '_')}.json`;
}

/**
 * The People tool: every record of one address in every table, downloadable as JSON (access
 * and portability), and erased everywhere after the address is typed again.
 */
export function PeoplePage() {
  const id = useId();
  const [email, setEmail] = useState('');
  const [lookup, setLookup] = useState<Lookup>({ status: 'idle' });
  const [typed, setTyped] = useState('');
  const [erasing, setErasing] = useState(false);
  const [erased, setErased] = useState<{ email: string; result: PersonErased } | null>(null);
  const [eraseError, setEraseError] = useState<string | null>(null);

  async function find(address: string) {
    setLookup({ status: 'loading', email: address });
    try {
      setLookup({ status: 'found', records: await api.get<PersonRecords>(peoplePath(address)) });
    } catch (error) {
      setLookup({
        status: 'failed',
        message: errorMessage(error),
      });
    }
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    setErased(null);
    setEraseError(null);
    setTyped('');
    void find(email.trim());
  }

  async function erase(address: string) {
    setErasing(true);
    setEraseError(null);
    try {
      const result = await api.post<PersonErased>(peopleErasePath(), { email: address });
      setErased({ email: address, result });
      setTyped('');
      await find(address);
    } catch (error) {
      setEraseError(errorMessage(error));
    } finally {
      setErasing(false);
    }
  }

  const records = lookup.status === 'found' ? lookup.records : null;
  const total = records?.tables.reduce((sum, table) => sum + table.rows.length, 0) ?? 0;

  return (
    <section aria-labelledby="people-heading" aria-busy={lookup.status === 'loading'}>
      <div className="mb-6">
        <h2 id="people-heading" className="text-2xl font-semibold text-sage-800">
          People
        </h2>
        <p className="mt-1 text-ink-muted">
          Answer access and erasure requests: every record of an email address, as a file, or erased
          from everywhere.
        </p>
      </div>

      <form
        onSubmit={submit}
        className="flex flex-wrap items-end gap-3 rounded-2xl border border-sand-200 bg-white px-4 py-4 shadow-sm sm:px-6"
      >
        <div className="flex min-w-0 flex-[1_1_16rem] flex-col gap-1">
          <label htmlFor={`${id}-email`} className="text-sm font-medium text-ink">
            Email address
          </label>
          <input
            id={`${id}-email`}
            type="email"
            required
            maxLength={MAX_EMAIL_LENGTH}
            autoComplete="off"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            placeholder="ann@example.com"
            className={`${adminInput} w-full`}
          />
        </div>
        <button type="submit" disabled={lookup.status === 'loading'} className={adminPrimaryButton}>
          <Search aria-hidden="true" className="size-4" />
          Find records
        </button>
      </form>

      {erased ? (
        <p
          role="status"
          className="mt-4 rounded-xl border border-sage-300 bg-sage-50 px-4 py-3 text-sm text-sage-800"
        >
          Erased {erased.email}:{' '}
          {erased.result.erased.length === 0
            ? 'nothing was stored.'
            : erased.result.erased
                .map(
                  (place) =>
                    `${place.table} (${place.deleted} deleted, ${place.scrubbed} scrubbed)`,
                )
                .join(', ')}
        </p>
      ) : null}

      <div className="mt-6">
        {lookup.status === 'loading' ? (
          <div
            role="status"
            className="flex items-center justify-center gap-3 rounded-2xl border border-sand-200 bg-white px-6 py-12 text-ink-muted shadow-sm"
          >
            <Spinner className="size-6 text-sage-600" />
            Looking for {lookup.email}…
          </div>
        ) : lookup.status === 'failed' ? (
          <p role="alert" className={`rounded-2xl border px-4 py-3 text-sm ${bannerTones.error}`}>
            {lookup.message}
          </p>
        ) : records && records.tables.length === 0 ? (
          <p className="rounded-2xl border border-sand-200 bg-white px-6 py-10 text-center text-ink-muted shadow-sm">
            No records of {records.email}.
          </p>
        ) : records ? (
          <div className="space-y-6">
            <div className="flex flex-wrap items-center justify-between gap-3">
              <p className="text-ink">
                {total} {total === 1 ? 'record' : 'records'} of{' '}
                <strong className="break-all">{records.email}</strong> in {records.tables.length}{' '}
                {records.tables.length === 1 ? 'place' : 'places'}.
              </p>
              <button
                type="button"
                onClick={() =>
                  downloadFile(
                    personFileName(records.email),
                    [JSON.stringify(records, null, 2)],
                    'application/json',
                  )
                }
                className={adminSecondaryButton}
              >
                <Download aria-hidden="true" className="size-4" />
                Download JSON
              </button>
            </div>
            {records.tables.map((table) => (
              <section
                key={table.table}
                aria-labelledby={`${id}-${table.table}`}
                className="overflow-hidden rounded-2xl border border-sand-200 bg-white shadow-sm"
              >
                <h3
                  id={`${id}-${table.table}`}
                  className="border-b border-sand-200 px-4 py-3 text-base font-semibold text-sage-800 sm:px-6"
                >
                  {table.table}{' '}
                  <span className="font-normal text-ink-muted">
                    · {table.label} · {table.rows.length}
                  </span>
                </h3>
                {/* Focusable, so a keyboard can scroll many records. */}
                <pre
                  tabIndex={0}
                  className="max-h-80 overflow-auto p-4 text-xs break-words whitespace-pre-wrap text-ink sm:px-6"
                >
                  {JSON.stringify(table.rows, null, 2)}
                </pre>
              </section>
            ))}
            <section
              aria-labelledby={`${id}-erase`}
              className="rounded-2xl border border-red-300 bg-red-50/60 px-4 py-4 sm:px-6"
            >
              <h3 id={`${id}-erase`} className="text-base font-semibold text-red-800">
                Erase this person
              </h3>
              <p className="mt-1 text-sm text-ink">
                Deletes their records and sign-in account, and takes the address out of every other
                row and the activity log. This cannot be undone.
              </p>
              <form
                onSubmit={(event) => {
                  event.preventDefault();
                  if (eraseConfirmationMatches(records.email, typed)) void erase(records.email);
                }}
                className="mt-3 flex flex-wrap items-end gap-3"
              >
                <div className="flex min-w-0 flex-[1_1_16rem] flex-col gap-1">
                  <label htmlFor={`${id}-confirm`} className="text-sm font-medium text-ink">
                    Type {records.email} to confirm
                  </label>
                  <input
                    id={`${id}-confirm`}
                    type="text"
                    autoComplete="off"
                    value={typed}
                    onChange={(event) => setTyped(event.target.value)}
                    className={`${adminInput} w-full`}
                  />
                </div>
                <button
                  type="submit"
                  disabled={erasing || !eraseConfirmationMatches(records.email, typed)}
                  className="inline-flex items-center justify-center gap-2 rounded-lg bg-red-700 px-3.5 py-2 text-sm font-semibold text-white shadow-sm hover:bg-red-800 disabled:cursor-not-allowed disabled:opacity-60"
                >
                  {erasing ? <Spinner /> : <Trash2 aria-hidden="true" className="size-4" />}
                  Erase everywhere
                </button>
              </form>
              {eraseError ? (
                <p role="alert" className="mt-3 text-sm text-red-800">
                  {eraseError}
                </p>
              ) : null}
            </section>
          </div>
        ) : null}
      </div>
    </section>
  );
}
