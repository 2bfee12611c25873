import { X } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { track } from '../../analytics/analytics';
import { ContentImage } from '../../components/content-image';
import { ModalDialog } from '../../components/modal-dialog';
import { useStoreContent } from '../../routing/public-config';
import { fieldLimits, HONEYPOT_FIELD } from '../../../shared/forms/form-fields';
import { firstIssue, formSchemas } from '../../../shared/forms/form-schemas';
import { Banner, Field, Honeypot } from '../../components/form-parts';
import { formPrimaryButton, formSecondaryButton } from '../../components/styles';
import { consentWording, LIST_CONSENT_FIELD } from '../../../shared/list/list-api';
import { postForm } from './post-form';

export type FreeGuideDialogProps = { onClose(): void };

type Result = { kind: 'success' | 'duplicate'; guideUrl: string; emailFailed: boolean };

export const freeGuideMessages = {
  missing: 'Please fill in all required fields',
  emailFailed: 'Your request was received, but there was an error sending the notification email',
  failed: 'There was an error processing your request. Please try again later.',
} as const;

/** The free-guide popup (SPEC.md §2, §4): a modal dialog that closes on Escape or its button. */
export function FreeGuideDialog({ onClose }: FreeGuideDialogProps) {
  const id = useId();
  const { popup, list, product } = useStoreContent();
  const [fields, setFields] = useState({ name: '', email: '', [HONEYPOT_FIELD]: '' });
  // Unticked until the visitor ticks it; the guide is given either way (DESIGN.md "The mailing list").
  const [listConsent, setListConsent] = useState(false);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<Result | null>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (loading) return;
    setLoading(true);
    setError(null);
    setResult(null);
    track('free_product_form_submit_attempt');
    if (!fields.name.trim() || !fields.email.trim()) {
      setError(freeGuideMessages.missing);
      setLoading(false);
      return;
    }
    const parsed = formSchemas['free-guide'].safeParse(fields);
    if (!parsed.success) {
      setError(firstIssue(parsed.error));
      setLoading(false);
      return;
    }
    const body: Record<string, string | boolean> = { ...parsed.data };
    if (fields[HONEYPOT_FIELD]) body[HONEYPOT_FIELD] = fields[HONEYPOT_FIELD];
    if (listConsent) body[LIST_CONSENT_FIELD] = true;
    const answer = await postForm('free-guide', body);
    setLoading(false);
    if (answer.status === 'error' || !answer.guideUrl) {
      setError(
        answer.status === 'error' && answer.message ? answer.message : freeGuideMessages.failed,
      );
      return;
    }
    const emailFailed = answer.status === 'success' && !answer.emailSent;
    setResult({ kind: answer.status, guideUrl: answer.guideUrl, emailFailed });
    if (answer.status === 'success') track('free_product_form_submit_success');
  }

  function requestAgain() {
    setFields({ name: '', email: '', [HONEYPOT_FIELD]: '' });
    setListConsent(false);
    setError(null);
    setResult(null);
  }

  const downloadLink = result ? (
    <a
      href={result.guideUrl}
      target="_blank"
      rel="noopener noreferrer"
      className={`${formPrimaryButton} mt-4`}
      onClick={() => track('free_product_download_clicked')}
    >
      Download Your Free Guide
    </a>
  ) : null;

  return (
    <ModalDialog
      labelledBy={`${id}-title`}
      describedBy={`${id}-copy`}
      onClose={onClose}
      className="relative max-h-[calc(100dvh-2rem)] w-full max-w-lg overflow-y-auto rounded-3xl bg-white p-6 shadow-xl sm:p-8"
    >
      <button
        type="button"
        onClick={onClose}
        aria-label="Close"
        className="absolute top-3 right-3 rounded-full p-2 text-ink-muted hover:bg-sand-100 hover:text-ink"
      >
        <X aria-hidden="true" className="h-5 w-5" />
      </button>
      <div className="flex items-start gap-5">
        <ContentImage
          image={popup.image}
          sizes="80px"
          className="hidden h-auto w-20 shrink-0 sm:block"
        />
        <div>
          <h2 id={`${id}-title`} className="text-2xl font-semibold text-sage-800">
            {popup.title}
          </h2>
          <p id={`${id}-copy`} className="mt-2 text-ink-muted">
            {popup.text}
          </p>
        </div>
      </div>

      {result?.kind === 'success' ? (
        <div className="mt-6">
          <Banner tone="success" title="Your guide is ready!" />
          {result.emailFailed ? (
            <p className="mt-3 rounded-2xl border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900">
              {freeGuideMessages.emailFailed}
            </p>
          ) : null}
          {downloadLink}
        </div>
      ) : null}
      {result?.kind === 'duplicate' ? (
        <div className="mt-6">
          <Banner tone="duplicate" title="You've already requested this guide!">
            Here is your download link again.
          </Banner>
          {downloadLink}
        </div>
      ) : null}
      {result ? (
        <button
          type="button"
          onClick={requestAgain}
          className={`${formSecondaryButton} mt-4 w-full`}
        >
          Request with different email
        </button>
      ) : (
        <form
          aria-label="Free guide request"
          noValidate
          className="relative mt-6 space-y-4"
          onSubmit={submit}
        >
          <Field
            id={`${id}-name`}
            label="Your Name *"
            name="name"
            type="text"
            autoComplete="name"
            placeholder="Your first name"
            maxLength={fieldLimits.name}
            disabled={loading}
            value={fields.name}
            onChange={(event) => setFields({ ...fields, name: event.target.value })}
          />
          <Field
            id={`${id}-email`}
            label="Your Email *"
            name="email"
            type="email"
            autoComplete="email"
            placeholder="you@example.com"
            maxLength={fieldLimits.email}
            disabled={loading}
            value={fields.email}
            onChange={(event) => setFields({ ...fields, email: event.target.value })}
          />
          <div className="flex items-start gap-3">
            <input
              id={`${id}-list`}
              name={LIST_CONSENT_FIELD}
              type="checkbox"
              className="mt-1 h-4 w-4 shrink-0 accent-sage-700"
              disabled={loading}
              checked={listConsent}
              onChange={(event) => setListConsent(event.target.checked)}
            />
            <label htmlFor={`${id}-list`} className="text-sm text-ink">
              {consentWording(list.consentLabel, product.name)}
            </label>
          </div>
          <Honeypot
            id={`${id}-website`}
            value={fields[HONEYPOT_FIELD]}
            onChange={(value) => setFields({ ...fields, [HONEYPOT_FIELD]: value })}
          />
          {error ? <Banner tone="error" title={error} /> : null}
          <button
            type="submit"
            className={`${formPrimaryButton} w-full`}
            disabled={loading || !fields.name.trim() || !fields.email.trim()}
          >
            {loading ? 'Processing...' : popup.button}
          </button>
          <p className="text-center text-xs text-ink-muted">
            We respect your privacy. Your details are never shared with third parties.
          </p>
        </form>
      )}
    </ModalDialog>
  );
}
