import { CalendarClock, X } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { errorMessage } from '../../../shared/error-message';
import type { StoreSchedule } from '../../../shared/store/schedule-api';
import {
  adminFormInput,
  adminLabel,
  adminPrimaryButton,
  adminSecondaryButton,
} from '../../components/admin-styles';
import { LoadFailed, PanelLoading } from '../../components/load-states';
import { Spinner } from '../../components/spinner';
import { bannerTones } from '../../components/styles';
import { fromLocalInput } from '../../lib/local-date-time';
import { useFetched } from '../../lib/use-fetched';
import { storeAdminClient, type StoreAdminClient } from './store-admin-client';
import { zonedTime } from '../../../shared/zoned-time';

/** A time as the owner reads it: their own zone, named ("Dec 1, 2026, 9:00 AM EST"). */
export const scheduleTime = zonedTime;

/**
 * "Publish at": the saved draft goes live at a chosen time (in the owner's own zone) on every
 * instance, as a publish would; one schedule at a time, cancellable until then.
 */
export function StoreSchedulePanel({
  dirty,
  client = storeAdminClient,
}: {
  /** The form has unsaved changes: a schedule takes the saved draft, so it asks to save first. */
  dirty: boolean;
  client?: Pick<StoreAdminClient, 'schedule' | 'setSchedule' | 'cancelSchedule'>;
}) {
  const schedule = useFetched('store-schedule', () => client.schedule());
  const [when, setWhen] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function act(action: () => Promise<StoreSchedule | null>) {
    setBusy(true);
    setError(null);
    try {
      const next = await action();
      schedule.update({ schedule: next });
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const publishAt = fromLocalInput(when);
    if (!publishAt) {
      setError('Choose the date and time to publish.');
      return;
    }
    void act(() => client.setSchedule(publishAt));
  }

  if (schedule.error && !schedule.data) {
    return (
      <LoadFailed onRetry={schedule.reload}>
        The schedule could not be loaded: {schedule.error}
      </LoadFailed>
    );
  }
  if (!schedule.data) return <PanelLoading>Loading the schedule…</PanelLoading>;
  const current = schedule.data.schedule;

  return (
    <div className="grid gap-3 px-5 py-4">
      {current ? (
        <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
          <CalendarClock aria-hidden="true" className="size-5 shrink-0 text-sage-700" />
          <p className="min-w-0 flex-1 basis-56 text-ink">
            The saved draft will be published on{' '}
            <time dateTime={current.publishAt} className="font-semibold">
              {scheduleTime(current.publishAt)}
            </time>
            .<span className="block text-sm text-ink-muted">Scheduled by {current.by}</span>
          </p>
          <button
            type="button"
            className={adminSecondaryButton}
            disabled={busy}
            onClick={() =>
              void act(async () => {
                await client.cancelSchedule();
                return null;
              })
            }
          >
            {busy ? <Spinner /> : <X aria-hidden="true" className="size-4" />}
            Cancel schedule
          </button>
        </div>
      ) : (
        <form
          noValidate
          aria-label="Schedule a publish"
          onSubmit={submit}
          className="flex flex-wrap items-end gap-3"
        >
          <label className="grid gap-1">
            <span className={adminLabel}>Publish at</span>
            <input
              type="datetime-local"
              className={adminFormInput}
              value={when}
              onChange={(event) => setWhen(event.target.value)}
            />
          </label>
          <button type="submit" className={adminPrimaryButton} disabled={busy || dirty}>
            {busy ? <Spinner /> : <CalendarClock aria-hidden="true" className="size-4" />}
            Schedule
          </button>
          <p className="w-full text-sm text-ink-muted">
            {dirty
              ? 'Save the draft first: the saved draft is what will be published.'
              : 'The saved draft as it is now goes live at that time, in your time zone.'}
          </p>
        </form>
      )}
      {error && (
        <p role="alert" className={`rounded-lg border px-4 py-3 text-sm ${bannerTones.error}`}>
          {error}
        </p>
      )}
    </div>
  );
}
