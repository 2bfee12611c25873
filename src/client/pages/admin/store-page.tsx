import { CircleAlert, CircleCheck, Eye, Save, Send } from 'lucide-react';
import { useEffect, useId, useMemo, useState, type ReactNode } from 'react';
import type { StoreState, StoreVersion } from '../../../shared/store/store-api';
import { offerOf } from '../../../shared/store/offer';
import type { StoreContent } from '../../../shared/store/store-content';
import {
  adminFormInput,
  adminLabel,
  adminPrimaryButton,
  adminSecondaryButton,
} from '../../components/admin-styles';
import { LoadFailed, PanelLoading } from '../../components/load-states';
import { Spinner } from '../../components/spinner';
import { bannerTones } from '../../components/styles';
import { RequestError } from '../../lib/api-client';
import { useFetched } from '../../lib/use-fetched';
import { errorMessage } from '../../../shared/error-message';
import {
  contentOf,
  fieldOfPath,
  formValues,
  type StoreFormValues,
} from '../../features/store/store-form-values';
import { storeAdminClient, type StoreAdminClient } from '../../features/store/store-admin-client';
import { StorePreview } from '../../features/store/store-preview';
import { StoreVersions } from '../../features/store/store-versions';

type Errors = Partial<Record<keyof StoreFormValues, string>>;
type Outcome = { tone: 'success' | 'error'; text: string } | null;
type Busy = 'saving' | 'publishing' | 'previewing' | 'restoring' | null;

const card = 'rounded-2xl border border-sand-200 bg-white shadow-sm';

function same(a: StoreFormValues, b: StoreFormValues): boolean {
  return (Object.keys(a) as (keyof StoreFormValues)[]).every((key) => a[key] === b[key]);
}

/** The fields of the form named by the server's `fields` (content paths). */
function formErrors(fields: Record<string, string>): Errors {
  const errors: Errors = {};
  for (const [path, message] of Object.entries(fields)) {
    const field = fieldOfPath[path];
    if (field) errors[field] ??= message;
  }
  return errors;
}

function TextField({
  field,
  label,
  hint,
  values,
  errors,
  onChange,
  multiline = false,
  inputMode,
}: {
  field: keyof StoreFormValues;
  label: string;
  hint?: ReactNode;
  values: StoreFormValues;
  errors: Errors;
  onChange(field: keyof StoreFormValues, value: string): void;
  multiline?: boolean;
  inputMode?: 'decimal' | 'url';
}) {
  const id = `${useId()}-${field}`;
  const error = errors[field];
  const described = [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(' ');
  const common = {
    id,
    name: field,
    value: values[field],
    'aria-invalid': error ? true : undefined,
    'aria-describedby': described || undefined,
    className: `${adminFormInput} ${error ? 'border-red-400' : ''}`,
  };
  return (
    <div>
      <label htmlFor={id} className={adminLabel}>
        {label}
      </label>
      {multiline ? (
        <textarea {...common} rows={4} onChange={(event) => onChange(field, event.target.value)} />
      ) : (
        <input
          {...common}
          type={inputMode === 'url' ? 'url' : 'text'}
          inputMode={inputMode}
          onChange={(event) => onChange(field, event.target.value)}
        />
      )}
      {hint && (
        <p id={`${id}-hint`} className="mt-1 text-sm text-ink-muted">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="mt-1 text-sm font-medium text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}

function Section({ title, text, children }: { title: string; text: string; children: ReactNode }) {
  const id = useId();
  return (
    <section aria-labelledby={id} className={`${card} p-5 sm:p-6`}>
      <h3 id={id} className="text-lg font-semibold text-sage-800">
        {title}
      </h3>
      <p className="mt-1 text-sm text-ink-muted">{text}</p>
      <div className="mt-5 grid gap-5">{children}</div>
    </section>
  );
}

/** How the page will show the prices, or nothing while they are not prices. */
function PriceLine({ content }: { content: StoreContent | undefined }) {
  const offer = content && offerFor(content);
  if (!offer) return null;
  const { price, former } = offer;
  return (
    <span>
      Shown as <strong className="text-ink">{price}</strong>
      {former && (
        <>
          {' '}
          instead of <s>{former.price}</s>: {former.percentOff}% off, save {former.savings}
        </>
      )}
      .
    </span>
  );
}

/** The offer as the page shows it; undefined while the currency is not one. */
function offerFor(content: StoreContent) {
  try {
    return offerOf(content.product);
  } catch {
    return undefined;
  }
}

/**
 * The owner's Store page: the offer's texts and prices as a draft, previewed as the real page
 * at phone and desktop widths, published to every visitor, and any earlier version restored.
 */
export function StorePage({ client = storeAdminClient }: { client?: StoreAdminClient }) {
  const store = useFetched<StoreState>('store', () => client.load());
  const versions = useFetched<{ rows: StoreVersion[] }>('versions', () => client.versions());
  const [edit, setEdit] = useState<{ from: StoreContent; values: StoreFormValues }>();
  const [errors, setErrors] = useState<Errors>({});
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [busy, setBusy] = useState<Busy>(null);
  const [preview, setPreview] = useState<string>();

  // The form starts from the stored draft, and again whenever a save, publish or restore
  // brings a new one.
  const draft = store.data?.draft;
  const saved = useMemo(() => draft && formValues(draft), [draft]);
  const values = draft && edit?.from === draft ? edit.values : saved;

  const dirty = values !== undefined && saved !== undefined && !same(values, saved);
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  if (!store.data || !values) {
    return (
      <StoreFrame>
        {store.error ? (
          <LoadFailed className="rounded-xl" onRetry={store.reload}>
            The store could not be loaded: {store.error}
          </LoadFailed>
        ) : (
          <div className={card}>
            <PanelLoading>Loading the store…</PanelLoading>
          </div>
        )}
      </StoreFrame>
    );
  }
  const { published } = store.data;

  function change(field: keyof StoreFormValues, value: string) {
    setEdit({ from: draft!, values: { ...values!, [field]: value } });
    setErrors((current) => ({ ...current, [field]: undefined }));
  }

  /** The form as content, or undefined with its errors shown. */
  function checked(): StoreContent | undefined {
    const result = contentOf(values!, draft ?? published.content);
    if ('errors' in result) {
      setErrors(result.errors);
      setOutcome({ tone: 'error', text: 'Some fields need your attention.' });
      return undefined;
    }
    return result.content;
  }

  async function run(kind: Exclude<Busy, null>, action: () => Promise<string>) {
    setBusy(kind);
    setOutcome(null);
    try {
      setOutcome({ tone: 'success', text: await action() });
    } catch (error) {
      if (error instanceof RequestError && Object.keys(error.fields).length > 0) {
        setErrors(formErrors(error.fields));
        setOutcome({ tone: 'error', text: 'Some fields need your attention.' });
      } else {
        setOutcome({ tone: 'error', text: errorMessage(error) });
      }
    } finally {
      setBusy(null);
    }
  }

  async function saveDraft(content: StoreContent) {
    const state = await client.saveDraft(content);
    store.update(state);
    return state;
  }

  function save() {
    const content = checked();
    if (!content) return;
    void run('saving', async () => {
      await saveDraft(content);
      return 'Draft saved. Visitors still see the published version.';
    });
  }

  function publish() {
    const content = checked();
    if (!content) return;
    void run('publishing', async () => {
      if (dirty) await saveDraft(content);
      const { version } = await client.publish();
      store.reload();
      versions.reload();
      return `Version ${version} is live: visitors see it within a few seconds.`;
    });
  }

  function showPreview() {
    const content = checked();
    if (!content) return;
    void run('previewing', async () => {
      setPreview(await client.preview(content));
      return 'The preview below shows this form as the page would look. Nothing is published.';
    });
  }

  function restore(version: number) {
    void run('restoring', async () => {
      const answer = await client.restore(version);
      store.reload();
      versions.reload();
      return `Version ${version} is published again as version ${answer.version}.`;
    });
  }

  const shown = contentOf(values, draft ?? published.content);
  const fieldProps = { values, errors, onChange: change };
  return (
    <StoreFrame>
      <form
        noValidate
        aria-label="Store content"
        onSubmit={(event) => {
          event.preventDefault();
          save();
        }}
        className="grid gap-6"
      >
        <p className="text-sm text-ink-muted">
          Live: version {published.version}
          {dirty && (
            <span className="ml-2 rounded-full bg-amber-100 px-2 py-0.5 font-semibold text-amber-900">
              Unsaved changes
            </span>
          )}
        </p>

        <Section title="Product and price" text="What visitors buy, and what they pay.">
          <TextField field="name" label="Product name" {...fieldProps} />
          <div className="grid gap-5 sm:grid-cols-3">
            <TextField field="price" label="Price" inputMode="decimal" {...fieldProps} />
            <TextField
              field="compareAt"
              label="Former price (optional)"
              inputMode="decimal"
              {...fieldProps}
            />
            <TextField
              field="currency"
              label="Currency"
              hint="Such as usd or eur."
              {...fieldProps}
            />
          </div>
          <p className="text-sm text-ink-muted">
            <PriceLine content={'content' in shown ? shown.content : undefined} />
          </p>
          <TextField
            field="checkoutUrl"
            label="Checkout link"
            inputMode="url"
            hint="The Stripe Payment Link the buy buttons open."
            {...fieldProps}
          />
        </Section>

        <Section title="Top of the page" text="The first thing every visitor reads.">
          <TextField field="heroTitle" label="Headline" {...fieldProps} />
          <TextField field="heroText" label="Introduction" multiline {...fieldProps} />
        </Section>

        <Section
          title="After the purchase"
          text="The thank-you page and the receipt email every buyer gets."
        >
          <TextField field="thankYouTitle" label="Thank-you headline" {...fieldProps} />
          <TextField
            field="thankYouText"
            label="Thank-you text"
            hint="Shown after “Your product is ready.”"
            multiline
            {...fieldProps}
          />
          <TextField field="receiptSubject" label="Receipt subject" {...fieldProps} />
          <TextField
            field="receiptIntro"
            label="Receipt opening"
            hint="The download button, link terms and amount paid follow it."
            multiline
            {...fieldProps}
          />
        </Section>

        <div className="flex flex-wrap items-center gap-3">
          <button type="submit" className={adminSecondaryButton} disabled={busy !== null}>
            {busy === 'saving' ? <Spinner /> : <Save aria-hidden="true" className="size-4" />}
            Save draft
          </button>
          <button
            type="button"
            className={adminSecondaryButton}
            disabled={busy !== null}
            onClick={showPreview}
          >
            {busy === 'previewing' ? <Spinner /> : <Eye aria-hidden="true" className="size-4" />}
            Preview
          </button>
          <button
            type="button"
            className={adminPrimaryButton}
            disabled={busy !== null}
            onClick={publish}
          >
            {busy === 'publishing' ? <Spinner /> : <Send aria-hidden="true" className="size-4" />}
            Publish
          </button>
        </div>
        <div aria-live="polite">
          {outcome && (
            <p
              role={outcome.tone === 'error' ? 'alert' : 'status'}
              className={`flex items-start gap-2 rounded-lg border px-4 py-3 text-sm ${bannerTones[outcome.tone]}`}
            >
              {outcome.tone === 'error' ? (
                <CircleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
              ) : (
                <CircleCheck aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
              )}
              <span>{outcome.text}</span>
            </p>
          )}
        </div>
      </form>

      {preview !== undefined && (
        <section aria-labelledby="store-preview-heading" className="mt-8">
          <h3 id="store-preview-heading" className="mb-3 text-lg font-semibold text-sage-800">
            Preview (not published)
          </h3>
          <StorePreview html={preview} />
        </section>
      )}

      <section aria-labelledby="store-versions-heading" className={`${card} mt-8`}>
        <h3
          id="store-versions-heading"
          className="border-b border-sand-200 px-5 py-4 text-lg font-semibold text-sage-800"
        >
          Published versions
        </h3>
        {versions.error ? (
          <LoadFailed onRetry={versions.reload}>
            The versions could not be loaded: {versions.error}
          </LoadFailed>
        ) : versions.data ? (
          <StoreVersions
            rows={versions.data.rows}
            live={published.version}
            busy={busy !== null}
            onRestore={restore}
          />
        ) : (
          <PanelLoading>Loading the versions…</PanelLoading>
        )}
      </section>
    </StoreFrame>
  );
}

function StoreFrame({ children }: { children: ReactNode }) {
  return (
    <section aria-labelledby="store-heading" className="max-w-5xl">
      <div className="mb-6">
        <h2 id="store-heading" className="text-2xl font-semibold text-sage-800">
          Store
        </h2>
        <p className="mt-1 text-ink-muted">
          Edit the offer, preview it as visitors will see it, then publish. Every published version
          can be restored.
        </p>
      </div>
      {children}
    </section>
  );
}
