import { ArrowLeft, Ban, Pause, Play, Save, Trash2 } from 'lucide-react';
import { useId, useState, type ReactNode } from 'react';
import {
  ADMIN_BROADCAST_PREVIEW_DOCUMENT_PATH,
  type AdminBroadcast,
  type BroadcastDraft,
} from '../../../shared/broadcasts/broadcasts-api';
import { errorMessage } from '../../../shared/error-message';
import { adminSecondaryButton } from '../../components/admin-styles';
import { LoadFailed, PanelLoading } from '../../components/load-states';
import { Spinner } from '../../components/spinner';
import { RequestError } from '../../lib/api-client';
import { formatDate } from '../../lib/format-date';
import { useFetched } from '../../lib/use-fetched';
import { useScrollToTop } from '../../lib/use-scroll-to-top';
import {
  isSenderMissing,
  type BroadcastAction,
  type BroadcastAdmin,
} from './broadcast-admin-client';
import { BroadcastStatusBadge } from './broadcast-status-badge';
import { EmailFields, type EmailDraft, type EmailErrors } from './email-fields';
import { EmailTools } from './email-tools';
import { OutcomeBanner, type Outcome } from './outcome-banner';
import { SendForm } from './send-form';
import { SendOutcome, SendProgress } from './send-results';
import { SenderMissingNotice } from './sender-missing-notice';
import { usePolling } from './use-polling';

/** How often a sending broadcast's counts are fetched again. */
export const PROGRESS_POLL_MS = 2000;

export const sendNowConfirmation = 'Send this email to every confirmed subscriber now?';
export const cancelConfirmation =
  'Cancel this broadcast? Nobody else gets it, and it cannot be resumed.';
export const deleteConfirmation = 'Delete this draft? This cannot be undone.';

const card = 'rounded-2xl border border-sand-200 bg-white shadow-sm';
const blank: BroadcastDraft = { subject: '', preheader: '', html: '', excludeBuyers: false };

type Busy = 'save' | 'send' | 'delete' | BroadcastAction | null;
type Notice = Outcome | 'sender-missing';

function draftOf(broadcast: AdminBroadcast): BroadcastDraft {
  const { subject, preheader, html, excludeBuyers } = broadcast;
  return { subject, preheader, html, excludeBuyers };
}

function Card({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <section aria-labelledby={id} className={card}>
      <h3
        id={id}
        className="border-b border-sand-200 px-5 py-4 text-lg font-semibold text-sage-800 sm:px-6"
      >
        {title}
      </h3>
      <div className="p-5 sm:p-6">{children}</div>
    </section>
  );
}

/** One line on where the broadcast is: when it was scheduled, started or finished. */
function timeline(broadcast: AdminBroadcast): string {
  switch (broadcast.status) {
    case 'draft':
      return `Draft, created ${formatDate(broadcast.createdAt, 'short')}`;
    case 'scheduled':
      return `Starts ${formatDate(broadcast.scheduledAt, 'short')}`;
    case 'sending':
      return `Sending since ${formatDate(broadcast.startedAt, 'short')}`;
    case 'paused':
      return `Paused; started ${formatDate(broadcast.startedAt, 'short')}`;
    case 'cancelled':
      return `Cancelled ${formatDate(broadcast.finishedAt, 'short')}`;
    case 'sent':
      return `Sent ${formatDate(broadcast.finishedAt, 'short')}`;
  }
}

/**
 * One broadcast: a draft's editor with preview, test and send; once sent or scheduled its
 * progress (fetched again while it sends), its controls and its results.
 */
export function BroadcastDetail({
  id,
  client,
  currency,
  onBack,
  onCreated,
}: {
  /** null: a new one, not saved yet. */
  id: number | null;
  client: BroadcastAdmin;
  currency: string | null;
  onBack(): void;
  onCreated(id: number): void;
}) {
  const loaded = useFetched<AdminBroadcast | null>(`broadcast:${id}`, () =>
    id === null ? Promise.resolve(null) : client.get(id),
  );
  const broadcast = loaded.data ?? null;
  const [edited, setEdited] = useState<BroadcastDraft | null>(null);
  const [errors, setErrors] = useState<EmailErrors>({});
  const [busy, setBusy] = useState<Busy>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  // Opened from anywhere down the list: it starts at its top.
  useScrollToTop();

  const status = broadcast?.status ?? 'draft';
  usePolling(
    status === 'sending' || status === 'scheduled',
    status === 'sending' ? PROGRESS_POLL_MS : PROGRESS_POLL_MS * 5,
    loaded.reload,
  );

  if (id !== null && !broadcast) {
    return (
      <DetailFrame onBack={onBack}>
        {loaded.error ? (
          <LoadFailed className="rounded-xl" onRetry={loaded.reload}>
            Could not load the broadcast: {loaded.error}
          </LoadFailed>
        ) : (
          <div className={card}>
            <PanelLoading>Loading the broadcast…</PanelLoading>
          </div>
        )}
      </DetailFrame>
    );
  }

  const saved = broadcast ? draftOf(broadcast) : blank;
  const draft = edited ?? saved;
  const editable = status === 'draft' || status === 'scheduled';
  const dirty = edited !== null;

  async function run(kind: Exclude<Busy, null>, action: () => Promise<string | null>) {
    setBusy(kind);
    setNotice(null);
    try {
      const text = await action();
      if (text) setNotice({ tone: 'success', text });
    } catch (failure) {
      if (isSenderMissing(failure)) setNotice('sender-missing');
      else {
        if (failure instanceof RequestError) setErrors(failure.fields as EmailErrors);
        setNotice({ tone: 'error', text: errorMessage(failure) });
      }
    } finally {
      setBusy(null);
    }
  }

  /** Saves the form when it changed; the id it is saved under. */
  async function saveIfChanged(): Promise<number> {
    if (id === null) return client.create(draft);
    if (dirty) {
      loaded.update(await client.update(id, draft));
      setEdited(null);
    }
    setErrors({});
    return id;
  }

  function save() {
    void run('save', async () => {
      const savedId = await saveIfChanged();
      if (savedId !== id) {
        setEdited(null);
        onCreated(savedId);
      }
      return 'Draft saved.';
    });
  }

  function send(at: string | undefined) {
    if (!at && !window.confirm(sendNowConfirmation)) return;
    void run('send', async () => {
      const savedId = await saveIfChanged();
      const answer = await client.send(savedId, at);
      if (savedId === id) loaded.update(answer);
      else {
        setEdited(null);
        onCreated(savedId);
      }
      return at ? `Scheduled for ${formatDate(at, 'short')}.` : 'Sending has started.';
    });
  }

  function act(action: BroadcastAction) {
    if (action === 'cancel' && !window.confirm(cancelConfirmation)) return;
    void run(action, async () => {
      loaded.update(await client.act(id!, action));
      return null;
    });
  }

  function remove() {
    if (!window.confirm(deleteConfirmation)) return;
    void run('delete', async () => {
      await client.remove(id!);
      onBack();
      return null;
    });
  }

  const email: EmailDraft = {
    subject: draft.subject,
    preheader: draft.preheader ?? '',
    html: draft.html,
  };
  const controls = broadcast &&
    (status === 'sending' || status === 'paused' || status === 'scheduled') && (
      <div className="flex flex-wrap gap-2">
        {status === 'sending' ? (
          <button
            type="button"
            className={adminSecondaryButton}
            disabled={busy !== null}
            onClick={() => act('pause')}
          >
            {busy === 'pause' ? <Spinner /> : <Pause aria-hidden="true" className="size-4" />}
            Pause
          </button>
        ) : null}
        {status === 'paused' ? (
          <button
            type="button"
            className={adminSecondaryButton}
            disabled={busy !== null}
            onClick={() => act('resume')}
          >
            {busy === 'resume' ? <Spinner /> : <Play aria-hidden="true" className="size-4" />}
            Resume
          </button>
        ) : null}
        <button
          type="button"
          className={`${adminSecondaryButton} text-red-800 hover:bg-red-50`}
          disabled={busy !== null}
          onClick={() => act('cancel')}
        >
          {busy === 'cancel' ? <Spinner /> : <Ban aria-hidden="true" className="size-4" />}
          {status === 'scheduled' ? 'Cancel the schedule' : 'Cancel sending'}
        </button>
      </div>
    );

  return (
    <DetailFrame onBack={onBack}>
      <header className="flex flex-wrap items-start justify-between gap-x-4 gap-y-2">
        <div className="min-w-0">
          <h3 className="text-xl font-semibold break-words text-sage-800">
            {broadcast ? broadcast.subject : 'New broadcast'}
          </h3>
          <p className="mt-1 text-sm text-ink-muted">
            {broadcast ? timeline(broadcast) : 'Not saved yet'}
            {broadcast ? (
              <>
                {' '}
                · campaign <code className="text-ink">{broadcast.slug}</code>
              </>
            ) : null}
          </p>
        </div>
        {broadcast ? <BroadcastStatusBadge status={status} /> : null}
      </header>

      <div aria-live="polite">
        {notice === 'sender-missing' ? (
          <SenderMissingNotice />
        ) : notice ? (
          <OutcomeBanner outcome={notice} />
        ) : null}
      </div>

      {broadcast && status !== 'draft' && status !== 'scheduled' ? (
        <Card title={status === 'sending' ? 'Progress (updates by itself)' : 'Progress'}>
          <div className="grid gap-5">
            <SendProgress broadcast={broadcast} />
            {controls}
          </div>
        </Card>
      ) : null}

      {broadcast && (status === 'sent' || status === 'cancelled' || broadcast.sent > 0) ? (
        <Card title="Results">
          <SendOutcome results={broadcast} currency={currency} />
        </Card>
      ) : null}

      {status === 'scheduled' && broadcast ? (
        <div className="flex flex-wrap items-center justify-between gap-3 rounded-xl border border-clay-200 bg-clay-50 px-4 py-3 text-sm text-ink">
          <p>
            Scheduled for <strong>{formatDate(broadcast.scheduledAt, 'short')}</strong>. You can
            still change it until then.
          </p>
          {controls}
        </div>
      ) : null}

      <Card title={editable ? 'Email' : 'The email'}>
        {editable ? (
          <form
            noValidate
            aria-label="Broadcast"
            className="grid gap-5"
            onSubmit={(event) => {
              event.preventDefault();
              save();
            }}
          >
            <EmailFields
              key={broadcast?.id ?? 'new'}
              draft={email}
              errors={errors}
              onChange={(next) => {
                setEdited({ ...draft, ...next });
                setErrors({});
              }}
            />
            <label className="flex items-start gap-3 text-sm">
              <input
                type="checkbox"
                checked={draft.excludeBuyers ?? false}
                onChange={(event) => setEdited({ ...draft, excludeBuyers: event.target.checked })}
                className="mt-0.5 size-4 accent-sage-700"
              />
              <span>
                <span className="font-medium text-ink">Leave out buyers</span>
                <span className="block text-ink-muted">
                  Subscribers with a paid order do not get this one.
                </span>
              </span>
            </label>
            <div className="flex flex-wrap gap-2 border-t border-sand-200 pt-5">
              <button
                type="submit"
                className={adminSecondaryButton}
                disabled={busy !== null || (id !== null && !dirty)}
              >
                {busy === 'save' ? <Spinner /> : <Save aria-hidden="true" className="size-4" />}
                {id === null ? 'Save draft' : 'Save changes'}
              </button>
              {id !== null ? (
                <button
                  type="button"
                  className={`${adminSecondaryButton} text-red-800 hover:bg-red-50`}
                  disabled={busy !== null}
                  onClick={remove}
                >
                  {busy === 'delete' ? (
                    <Spinner />
                  ) : (
                    <Trash2 aria-hidden="true" className="size-4" />
                  )}
                  Delete
                </button>
              ) : null}
            </div>
          </form>
        ) : (
          <dl className="grid gap-3 text-sm">
            <div>
              <dt className="text-ink-muted">Subject</dt>
              <dd className="font-medium text-ink">{draft.subject}</dd>
            </div>
            <div>
              <dt className="text-ink-muted">Preview text</dt>
              <dd className="text-ink">{draft.preheader || '—'}</dd>
            </div>
            <div>
              <dt className="text-ink-muted">Audience</dt>
              <dd className="text-ink">
                Confirmed subscribers{draft.excludeBuyers ? ', without buyers' : ''}
              </dd>
            </div>
          </dl>
        )}
        <div className="mt-5 border-t border-sand-200 pt-5">
          <EmailTools
            title="Broadcast preview"
            draft={draft}
            documentPath={ADMIN_BROADCAST_PREVIEW_DOCUMENT_PATH}
            preview={() => client.preview(draft)}
            test={() => client.test(draft)}
          />
        </div>
      </Card>

      {status === 'draft' ? (
        <Card title="Send">
          <SendForm busy={busy !== null} onSend={send} />
        </Card>
      ) : null}
    </DetailFrame>
  );
}

function DetailFrame({ onBack, children }: { onBack(): void; children: ReactNode }) {
  return (
    <div className="grid gap-5">
      <div>
        <button
          type="button"
          onClick={onBack}
          className="inline-flex items-center gap-1.5 rounded-lg px-2 py-1 text-sm font-medium text-sage-800 hover:bg-sand-100"
        >
          <ArrowLeft aria-hidden="true" className="size-4" />
          All broadcasts
        </button>
      </div>
      {children}
    </div>
  );
}
