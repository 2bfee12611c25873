import { CalendarClock, Send } from 'lucide-react';
import { useId, useState } from 'react';
import { adminInput, adminPrimaryButton } from '../../components/admin-styles';
import { Spinner } from '../../components/spinner';

/** A datetime-local value (the browser's time zone) as an ISO time, or null when not a time. */
export function isoFromLocal(value: string): string | null {
  const time = new Date(value).getTime();
  return value && !Number.isNaN(time) ? new Date(time).toISOString() : null;
}

/** Send now, or choose a time: the last step of a draft. */
export function SendForm({
  busy,
  onSend,
}: {
  busy: boolean;
  /** Now (undefined) or at an ISO time. */
  onSend(at: string | undefined): void;
}) {
  const id = useId();
  const [when, setWhen] = useState<'now' | 'later'>('now');
  const [local, setLocal] = useState('');
  const [problem, setProblem] = useState('');

  function submit() {
    if (when === 'now') return onSend(undefined);
    const at = isoFromLocal(local);
    if (!at) return setProblem('Choose the date and time to send it.');
    if (Date.parse(at) <= Date.now()) return setProblem('Choose a time in the future.');
    setProblem('');
    onSend(at);
  }

  const option = (value: 'now' | 'later', label: string, hint: string) => (
    <label
      className={`flex cursor-pointer gap-3 rounded-xl border px-4 py-3 transition-colors ${
        when === value ? 'border-sage-600 bg-sage-50' : 'border-sand-300 bg-white hover:bg-sand-50'
      }`}
    >
      <input
        type="radio"
        name={`${id}-when`}
        value={value}
        checked={when === value}
        onChange={() => setWhen(value)}
        className="mt-1 accent-sage-700"
      />
      <span>
        <span className="block text-sm font-semibold text-ink">{label}</span>
        <span className="block text-sm text-ink-muted">{hint}</span>
      </span>
    </label>
  );

  return (
    <fieldset className="grid gap-3">
      <legend className="mb-1 text-sm font-semibold text-ink">When</legend>
      <div className="grid gap-3 sm:grid-cols-2">
        {option('now', 'Send now', 'It starts within seconds.')}
        {option('later', 'At a time', 'It starts by itself then.')}
      </div>
      {when === 'later' ? (
        <div className="flex flex-col gap-1">
          <label htmlFor={`${id}-at`} className="text-sm font-medium text-ink">
            Date and time (your time zone)
          </label>
          <input
            id={`${id}-at`}
            type="datetime-local"
            value={local}
            onChange={(event) => setLocal(event.target.value)}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? `${id}-problem` : undefined}
            className={`${adminInput} max-w-xs`}
          />
          {problem ? (
            <p id={`${id}-problem`} className="text-sm font-medium text-red-700">
              {problem}
            </p>
          ) : null}
        </div>
      ) : null}
      <div>
        <button type="button" className={adminPrimaryButton} disabled={busy} onClick={submit}>
          {busy ? (
            <Spinner />
          ) : when === 'now' ? (
            <Send aria-hidden="true" className="size-4" />
          ) : (
            <CalendarClock aria-hidden="true" className="size-4" />
          )}
          {when === 'now' ? 'Send to subscribers' : 'Schedule'}
        </button>
      </div>
    </fieldset>
  );
}
