import { Eye, MailCheck } from 'lucide-react';
import { useState } from 'react';
import { PREVIEW_DRAFT_FIELD, type EmailPreview } from '../../../shared/broadcasts/broadcasts-api';
import { errorMessage } from '../../../shared/error-message';
import { adminSecondaryButton } from '../../components/admin-styles';
import { Spinner } from '../../components/spinner';
import { ViewportPreview } from '../../components/viewport-preview';
import { isSenderMissing } from './broadcast-admin-client';
import { OutcomeBanner, type Outcome } from './outcome-banner';
import { SenderMissingNotice } from './sender-missing-notice';

type Busy = 'preview' | 'test' | null;

type Shown = EmailPreview & { fields: Record<string, string> };

/**
 * Preview at phone and desktop widths and a test send to the signed-in admin, of the email as
 * it is in the form (saved or not). The frames show the email as a document of its own, posted
 * to `documentPath`: written into a frame, it would take the admin page's policy, which refuses
 * its inline styles.
 */
export function EmailTools({
  title,
  draft,
  documentPath,
  preview,
  test,
}: {
  /** What the preview frames are of ("Broadcast preview"). */
  title: string;
  /** The email as it is in the form. */
  draft: unknown;
  /** Where the preview document of `draft` is posted. */
  documentPath: string;
  preview(): Promise<EmailPreview>;
  test(): Promise<{ sentTo: string }>;
}) {
  const [busy, setBusy] = useState<Busy>(null);
  const [shown, setShown] = useState<Shown | null>(null);
  const [outcome, setOutcome] = useState<Outcome | 'sender-missing' | null>(null);

  async function run(kind: Exclude<Busy, null>) {
    setBusy(kind);
    setOutcome(null);
    try {
      if (kind === 'preview') {
        const fields = { [PREVIEW_DRAFT_FIELD]: JSON.stringify(draft) };
        setShown({ ...(await preview()), fields });
      } else {
        const { sentTo } = await test();
        setOutcome({ tone: 'success', text: `Test email sent to ${sentTo}.` });
      }
    } catch (failure) {
      setOutcome(
        isSenderMissing(failure)
          ? 'sender-missing'
          : { tone: 'error', text: errorMessage(failure) },
      );
    } finally {
      setBusy(null);
    }
  }

  return (
    <div className="grid gap-4">
      <div className="flex flex-wrap gap-2">
        <button
          type="button"
          className={adminSecondaryButton}
          disabled={busy !== null}
          onClick={() => void run('preview')}
        >
          {busy === 'preview' ? <Spinner /> : <Eye aria-hidden="true" className="size-4" />}
          Preview
        </button>
        <button
          type="button"
          className={adminSecondaryButton}
          disabled={busy !== null}
          onClick={() => void run('test')}
        >
          {busy === 'test' ? <Spinner /> : <MailCheck aria-hidden="true" className="size-4" />}
          Send me a test
        </button>
      </div>
      <div aria-live="polite">
        {outcome === 'sender-missing' ? (
          <SenderMissingNotice />
        ) : outcome ? (
          <OutcomeBanner outcome={outcome} />
        ) : null}
      </div>
      {shown ? (
        <section aria-label={title} className="grid gap-3 rounded-xl bg-sand-50 p-4 sm:p-5">
          <p className="text-sm">
            <span className="text-ink-muted">Subject: </span>
            <strong className="font-semibold text-ink">{shown.subject}</strong>
          </p>
          <ViewportPreview post={{ action: documentPath, fields: shown.fields }} title={title} />
        </section>
      ) : null}
    </div>
  );
}
