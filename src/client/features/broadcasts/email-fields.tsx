import { useId } from 'react';
import { adminFormInput, adminLabel } from '../../components/admin-styles';
import { useBodyEditor } from './body-editor';

/** What every list email has: a broadcast's and a sequence step's common fields. */
export type EmailDraft = { subject: string; preheader: string; html: string };

/** Field errors by name (subject, preheader, html), as the server or the form found them. */
export type EmailErrors = Partial<Record<keyof EmailDraft, string>>;

function ErrorText({ id, error }: { id: string; error: string | undefined }) {
  return error ? (
    <p id={id} className="mt-1 text-sm font-medium text-red-700">
      {error}
    </p>
  ) : null;
}

/**
 * Subject, preview text and body. The body's editor keeps its own state: give this a new `key`
 * to start it from another email.
 */
export function EmailFields({
  draft,
  errors = {},
  onChange,
}: {
  draft: EmailDraft;
  errors?: EmailErrors;
  onChange(draft: EmailDraft): void;
}) {
  const id = useId();
  const renderBodyEditor = useBodyEditor();
  const field = (name: keyof EmailDraft) => ({
    id: `${id}-${name}`,
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': errors[name] ? `${id}-${name}-error` : undefined,
  });
  return (
    <div className="grid gap-5">
      <div>
        <label htmlFor={`${id}-subject`} className={adminLabel}>
          Subject
        </label>
        <input
          {...field('subject')}
          value={draft.subject}
          maxLength={200}
          onChange={(event) => onChange({ ...draft, subject: event.target.value })}
          className={`${adminFormInput} ${errors.subject ? 'border-red-400' : ''}`}
        />
        <ErrorText id={`${id}-subject-error`} error={errors.subject} />
      </div>
      <div>
        <label htmlFor={`${id}-preheader`} className={adminLabel}>
          Preview text <span className="font-normal text-ink-muted">(optional)</span>
        </label>
        <input
          {...field('preheader')}
          value={draft.preheader}
          maxLength={200}
          aria-describedby={[`${id}-preheader-hint`, errors.preheader && `${id}-preheader-error`]
            .filter(Boolean)
            .join(' ')}
          onChange={(event) => onChange({ ...draft, preheader: event.target.value })}
          className={`${adminFormInput} ${errors.preheader ? 'border-red-400' : ''}`}
        />
        <p id={`${id}-preheader-hint`} className="mt-1 text-sm text-ink-muted">
          The line inboxes show after the subject.
        </p>
        <ErrorText id={`${id}-preheader-error`} error={errors.preheader} />
      </div>
      <div>
        <span id={`${id}-html-label`} className={adminLabel}>
          Email
        </span>
        {renderBodyEditor({
          labelledBy: `${id}-html-label`,
          defaultValue: draft.html,
          // The editor also reports the text it was started with: that is no change.
          onChange: (html) => {
            if (html !== draft.html) onChange({ ...draft, html });
          },
        })}
        <p className="mt-1 text-sm text-ink-muted">
          Your sender footer and an unsubscribe link are added to every email: the preview shows it
          as a subscriber gets it.
        </p>
        <ErrorText id={`${id}-html-error`} error={errors.html} />
      </div>
    </div>
  );
}
