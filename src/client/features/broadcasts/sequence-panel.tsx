import { Plus, Save, Trash2 } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import {
  ADMIN_SEQUENCE_PREVIEW_DOCUMENT_PATH,
  type AdminSequence,
  type AdminSequenceStep,
  type SendResults,
  type SequenceStepDraft,
} from '../../../shared/broadcasts/broadcasts-api';
import { errorMessage } from '../../../shared/error-message';
import {
  adminIconButton,
  adminInput,
  adminPrimaryButton,
  adminSecondaryButton,
} from '../../components/admin-styles';
import { LoadFailed, PanelLoading } from '../../components/load-states';
import { Spinner } from '../../components/spinner';
import { RequestError } from '../../lib/api-client';
import { formatAmount } from '../../lib/format-amount';
import { useFetched } from '../../lib/use-fetched';
import { broadcastAdmin, isSenderMissing, type BroadcastAdmin } from './broadcast-admin-client';
import { EmailFields, type EmailErrors } from './email-fields';
import { EmailTools } from './email-tools';
import { OutcomeBanner, type Outcome } from './outcome-banner';
import { SenderMissingNotice } from './sender-missing-notice';

/** The most steps a sequence has (the contract's limit). */
export const MAX_STEPS = 20;

/** A step in the form: its draft, its saved results, and a key that survives edits. */
type StepForm = { key: string; draft: SequenceStepDraft; results: SendResults | null };

const card = 'rounded-2xl border border-sand-200 bg-white shadow-sm';

function formOf(step: AdminSequenceStep): StepForm {
  const { id, delayDays, subject, preheader, html, ...results } = step;
  return { key: `saved-${id}`, draft: { id, delayDays, subject, preheader, html }, results };
}

/** "day 0" is right after confirming. */
function dayText(days: number): string {
  if (days === 0) return 'Right after confirming';
  return `${days} ${days === 1 ? 'day' : 'days'} after confirming`;
}

/** The server's errors of `steps.<index>.<field>` as one step's field errors. */
function stepErrors(
  fields: Record<string, string>,
  index: number,
): EmailErrors & { delayDays?: string } {
  const prefix = `steps.${index}.`;
  return Object.fromEntries(
    Object.entries(fields)
      .filter(([path]) => path.startsWith(prefix))
      .map(([path, text]) => [path.slice(prefix.length), text]),
  );
}

function StepResults({ results, currency }: { results: SendResults; currency: string | null }) {
  const items: [string, string][] = [
    ['Got it', results.sent.toLocaleString()],
    ['Queued', results.remaining.toLocaleString()],
    ['Failed or bounced', (results.failed + results.bounced).toLocaleString()],
    ['Bought after it', results.purchases.toLocaleString()],
    ['Revenue', formatAmount(results.revenue, currency)],
    ['Unsubscribed', results.unsubscribed.toLocaleString()],
  ];
  return (
    <dl className="grid grid-cols-2 gap-x-4 gap-y-2 rounded-xl bg-sand-50 px-4 py-3 text-sm min-[480px]:grid-cols-3 lg:grid-cols-6">
      {items.map(([label, value]) => (
        <div key={label} className="min-w-0">
          <dt className="text-xs text-ink-muted">{label}</dt>
          <dd className="font-semibold text-ink tabular-nums">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function StepCard({
  index,
  step,
  errors,
  currency,
  client,
  onChange,
  onRemove,
}: {
  index: number;
  step: StepForm;
  errors: EmailErrors & { delayDays?: string };
  currency: string | null;
  client: BroadcastAdmin;
  onChange(draft: SequenceStepDraft): void;
  onRemove(): void;
}) {
  const id = useId();
  const { draft } = step;
  return (
    <li className={card}>
      <fieldset className="relative grid gap-5 p-5 sm:p-6">
        <legend className="float-left pr-12">
          <span className="block text-lg font-semibold text-sage-800">Email {index + 1}</span>
          <span className="block text-sm text-ink-muted">{dayText(draft.delayDays)}</span>
        </legend>
        <button
          type="button"
          className={`${adminIconButton} absolute top-4 right-4 sm:top-5 sm:right-5`}
          aria-label={`Remove email ${index + 1}`}
          onClick={onRemove}
        >
          <Trash2 aria-hidden="true" className="size-4" />
        </button>
        <div className="clear-both flex flex-col gap-1">
          <label htmlFor={`${id}-delay`} className="text-sm font-medium text-ink">
            Days after confirming
          </label>
          <input
            id={`${id}-delay`}
            type="number"
            inputMode="numeric"
            min={0}
            max={365}
            value={Number.isNaN(draft.delayDays) ? '' : draft.delayDays}
            aria-invalid={errors.delayDays ? true : undefined}
            onChange={(event) => onChange({ ...draft, delayDays: event.target.valueAsNumber })}
            className={`${adminInput} w-28`}
          />
          {errors.delayDays ? (
            <p className="text-sm font-medium text-red-700">{errors.delayDays}</p>
          ) : null}
        </div>
        <EmailFields
          draft={{ subject: draft.subject, preheader: draft.preheader ?? '', html: draft.html }}
          errors={errors}
          onChange={(email) => onChange({ ...draft, ...email })}
        />
        <div className="border-t border-sand-200 pt-5">
          <EmailTools
            title={`Email ${index + 1} preview`}
            draft={draft}
            documentPath={ADMIN_SEQUENCE_PREVIEW_DOCUMENT_PATH}
            preview={() => client.previewStep(draft)}
            test={() => client.testStep(draft)}
          />
        </div>
        {step.results ? (
          <div className="grid gap-2">
            <h4 className="text-sm font-semibold text-ink">Results</h4>
            <StepResults results={step.results} currency={currency} />
          </div>
        ) : null}
      </fieldset>
    </li>
  );
}

/**
 * The follow-up sequence: emails sent a number of days after each subscriber confirmed, until
 * they buy or leave; on or off, each step with its results.
 */
export function SequencePanel({
  client = broadcastAdmin,
  currency = null,
}: {
  client?: BroadcastAdmin;
  currency?: string | null;
}) {
  const id = useId();
  const loaded = useFetched<AdminSequence>('sequence', () => client.sequence());
  const [form, setForm] = useState<{ from: AdminSequence; active: boolean; steps: StepForm[] }>();
  const [fields, setFields] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<Outcome | 'sender-missing' | null>(null);
  const nextKey = useRef(0);

  if (!loaded.data) {
    return loaded.error ? (
      <LoadFailed className="rounded-xl" onRetry={loaded.reload}>
        Could not load the sequence: {loaded.error}
      </LoadFailed>
    ) : (
      <div className={card}>
        <PanelLoading>Loading the sequence…</PanelLoading>
      </div>
    );
  }
  const sequence = loaded.data;
  const current =
    form && form.from === sequence
      ? form
      : { from: sequence, active: sequence.active, steps: sequence.steps.map(formOf) };
  const dirty = form !== undefined && form.from === sequence;
  const change = (next: Partial<typeof current>) => {
    setForm({ ...current, ...next });
    setFields({});
  };

  async function save() {
    setBusy(true);
    setNotice(null);
    try {
      const saved = await client.saveSequence({
        active: current.active,
        steps: current.steps.map((step) => step.draft),
      });
      loaded.update(saved);
      setForm(undefined);
      setFields({});
      setNotice({
        tone: 'success',
        text: saved.active
          ? 'Sequence saved. New subscribers get each email on its day.'
          : 'Sequence saved. It is off: no new email is queued.',
      });
    } catch (failure) {
      if (isSenderMissing(failure)) setNotice('sender-missing');
      else {
        if (failure instanceof RequestError) setFields(failure.fields);
        setNotice({ tone: 'error', text: errorMessage(failure) });
      }
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      noValidate
      aria-label="Follow-up sequence"
      className="grid gap-5"
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <div className={`${card} flex flex-wrap items-center justify-between gap-4 p-5 sm:p-6`}>
        <div className="min-w-0 flex-1 basis-64">
          <h3 id={`${id}-title`} className="text-lg font-semibold text-sage-800">
            Follow-up sequence
          </h3>
          <p className="mt-1 text-sm text-ink-muted">
            Emails each subscriber gets a number of days after confirming. It stops for them when
            they buy or unsubscribe.
          </p>
        </div>
        <label className="flex cursor-pointer items-center gap-3">
          <span className="text-sm font-medium text-ink">{current.active ? 'On' : 'Off'}</span>
          <input
            type="checkbox"
            role="switch"
            checked={current.active}
            aria-describedby={`${id}-title`}
            aria-label="Sequence active"
            onChange={(event) => change({ active: event.target.checked })}
            className="peer sr-only"
          />
          <span
            aria-hidden="true"
            className="relative h-6 w-11 rounded-full bg-sand-300 transition-colors peer-checked:bg-sage-700 peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-sage-600 after:absolute after:top-0.5 after:left-0.5 after:size-5 after:rounded-full after:bg-white after:shadow-sm after:transition-transform peer-checked:after:translate-x-5"
          />
        </label>
      </div>

      {current.steps.length === 0 ? (
        <p className={`${card} px-5 py-10 text-center text-sm text-ink-muted sm:px-6`}>
          No emails in the sequence yet. Add the first: for example the guide again right after
          confirming, a story on day 2, the offer on day 5.
        </p>
      ) : (
        <ol className="grid gap-5">
          {current.steps.map((step, index) => (
            <StepCard
              key={step.key}
              index={index}
              step={step}
              errors={stepErrors(fields, index)}
              currency={currency}
              client={client}
              onChange={(draft) =>
                change({
                  steps: current.steps.map((other, at) =>
                    at === index ? { ...other, draft } : other,
                  ),
                })
              }
              onRemove={() => change({ steps: current.steps.filter((_, at) => at !== index) })}
            />
          ))}
        </ol>
      )}

      <div className="flex flex-wrap items-center gap-3">
        {current.steps.length < MAX_STEPS ? (
          <button
            type="button"
            className={adminSecondaryButton}
            onClick={() => {
              const last = current.steps.at(-1)?.draft.delayDays ?? -2;
              change({
                steps: [
                  ...current.steps,
                  {
                    key: `new-${nextKey.current++}`,
                    draft: {
                      delayDays: Math.min(365, last + 2),
                      subject: '',
                      preheader: '',
                      html: '',
                    },
                    results: null,
                  },
                ],
              });
            }}
          >
            <Plus aria-hidden="true" className="size-4" />
            Add an email
          </button>
        ) : null}
        <button type="submit" className={adminPrimaryButton} disabled={busy || !dirty}>
          {busy ? <Spinner /> : <Save aria-hidden="true" className="size-4" />}
          Save sequence
        </button>
        {dirty ? (
          <span className="rounded-full bg-amber-100 px-2 py-0.5 text-sm font-semibold text-amber-900">
            Unsaved changes
          </span>
        ) : null}
      </div>
      <div aria-live="polite">
        {notice === 'sender-missing' ? (
          <SenderMissingNotice />
        ) : notice ? (
          <OutcomeBanner outcome={notice} />
        ) : null}
      </div>
    </form>
  );
}
