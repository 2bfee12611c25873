import { CircleAlert, CircleCheck, Eye, Save, Send } from 'lucide-react';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import type { StoreFileSummary } from '../../../shared/store/files-api';
import type { StoreState, StoreVersion } from '../../../shared/store/store-api';
import type { StoreContent } from '../../../shared/store/store-content';
import { adminPrimaryButton, adminSecondaryButton } from '../../components/admin-styles';
import { LoadFailed, PanelLoading } from '../../components/load-states';
import { Spinner } from '../../components/spinner';
import { bannerTones } from '../../components/styles';
import { RequestError } from '../../lib/api-client';
import { useFetched } from '../../lib/use-fetched';
import { errorMessage } from '../../../shared/error-message';
import { StoreFieldsProvider, type StoreFields } from '../../features/store/store-fields';
import {
  contentOf,
  formOf,
  sameForm,
  withValue,
  type FieldErrors,
  type StoreForm,
} from '../../features/store/store-form';
import { storeAdminClient, type StoreAdminClient } from '../../features/store/store-admin-client';
import { StorePreview } from '../../features/store/store-preview';
import { StoreSections } from '../../features/store/store-sections';
import { StoreVersions } from '../../features/store/store-versions';
import { StoreSchedulePanel } from '../../features/store/store-schedule';
import { CodesPanel } from '../../features/codes/codes-panel';

type Outcome = { tone: 'success' | 'error'; text: string } | null;
type Busy = 'saving' | 'publishing' | 'previewing' | 'restoring' | null;

const card = 'rounded-2xl border border-sand-200 bg-white shadow-sm';

/**
 * The owner's Store page: the offer's texts and prices as a draft, previewed as the real page
 * at phone and desktop widths, published to every visitor, and any earlier version restored.
 */
export function StorePage({ client = storeAdminClient }: { client?: StoreAdminClient }) {
  const store = useFetched<StoreState>('store', () => client.load());
  const versions = useFetched<{ rows: StoreVersion[] }>('versions', () => client.versions());
  const [edit, setEdit] = useState<{ from: StoreContent; form: StoreForm }>();
  const [errors, setErrors] = useState<FieldErrors>({});
  const [uploads, setUploads] = useState<Record<string, StoreFileSummary>>({});
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [busy, setBusy] = useState<Busy>(null);
  const [preview, setPreview] = useState<string>();

  // The form starts from the stored draft, and again whenever a save, publish or restore
  // brings a new one.
  const draft = store.data?.draft;
  const saved = useMemo(() => draft && formOf(draft), [draft]);
  const form = draft && edit?.from === draft ? edit.form : saved;

  const dirty = form !== undefined && saved !== undefined && !sameForm(form, saved);
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  if (!store.data || !form) {
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

  const fields: StoreFields = {
    form,
    errors,
    set(path, value) {
      const next =
        path in form.prices
          ? { ...form, prices: { ...form.prices, [path]: String(value) } }
          : { ...form, content: withValue(form.content, path, value) };
      setEdit({ from: draft!, form: next });
      // A list's change moves its items' paths: its errors and theirs go.
      setErrors((current) =>
        Object.fromEntries(
          Object.entries(current).filter(([key]) => key !== path && !key.startsWith(`${path}.`)),
        ),
      );
    },
    files: { ...store.data.files, ...uploads },
    addFile: (id, file) => setUploads((current) => ({ ...current, [id]: file })),
  };

  /** The form as content, or undefined with its errors shown. */
  function checked(): StoreContent | undefined {
    const result = contentOf(form!);
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
        setErrors(error.fields);
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

  return (
    <StoreFrame>
      <form
        noValidate
        aria-label="Store content"
        onSubmit={(event) => {
          event.preventDefault();
          save();
        }}
        className="grid gap-4"
      >
        <p className="text-sm text-ink-muted">
          Live: version {published.version}
          {dirty && (
            <span className="ml-2 rounded-full bg-amber-100 px-2 py-0.5 font-semibold text-amber-900">
              Unsaved changes
            </span>
          )}
        </p>

        <StoreFieldsProvider value={fields}>
          <StoreSections prices={store.data.prices} />
        </StoreFieldsProvider>

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

      <section aria-labelledby="store-schedule-heading" className={`${card} mt-8`}>
        <h3
          id="store-schedule-heading"
          className="border-b border-sand-200 px-5 py-4 text-lg font-semibold text-sage-800"
        >
          Scheduled publish
        </h3>
        <StoreSchedulePanel dirty={dirty} />
      </section>

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

      <section aria-labelledby="store-codes-heading" className={`${card} mt-8`}>
        <h3
          id="store-codes-heading"
          className="border-b border-sand-200 px-5 py-4 text-lg font-semibold text-sage-800"
        >
          Codes
        </h3>
        <CodesPanel currency={published.content.product.currency} />
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
