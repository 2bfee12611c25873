import { useId, type ReactNode } from 'react';
import { fieldLimits } from '../../../shared/forms/form-fields';
import { Banner, Field, Honeypot } from '../../components/form-parts';
import { formPrimaryButton, formSecondaryButton } from '../../components/styles';
import { useVisitorForm } from './use-visitor-form';

type Outcome = { title: string; text?: string };

/** SPEC.md §8: the duplicate banner of the order, contact and refund forms. */
export const requestAlreadySent: Outcome = {
  title: 'Email already registered!',
  text: 'You have already sent a request with this email.',
};

/** SPEC.md §8: the failure banner of the order and contact forms. */
export const formSubmissionError: Outcome = {
  title: 'Submission Error',
  text: 'An error occurred while submitting the form. Please try again later.',
};

/** Everything one of the four embedded forms says and does differently (SPEC.md §2, §8). */
export type VisitorFormCopy = {
  form: 'order' | 'contact' | 'refund' | 'terms-feedback';
  /** The form's accessible name. */
  label: string;
  /** Title and intro above the fields, if the form has them. */
  header?: ReactNode;
  labels: { name: string; email: string; message: string };
  placeholders: { name: string; email: string; message: string };
  required: readonly ('name' | 'email' | 'message')[];
  submitLabel: string;
  /** The order form's submit is the secondary action beside Buy Now. */
  submitStyle?: 'primary' | 'secondary';
  outcomes: { success: Outcome; duplicate: Outcome; error: Outcome };
  /** Beside the submit button (the order form's Buy Now link). */
  actions?: ReactNode;
  /** Notes under the form. */
  footer?: ReactNode;
  onAttempt?(): void;
  onSuccess?(): void;
  className?: string;
};

/** The one implementation of the order, contact, refund and terms feedback forms. */
export function VisitorForm(copy: VisitorFormCopy) {
  const id = useId();
  const { formRef, fields, setField, status, errorMessage, loading, canSubmit, submit, reset } =
    useVisitorForm(copy);
  const { outcomes } = copy;

  return (
    <div className={copy.className}>
      {copy.header}
      <form
        ref={formRef}
        aria-label={copy.label}
        className="relative mt-6 space-y-5"
        onSubmit={submit}
      >
        <Field
          id={`${id}-name`}
          label={copy.labels.name}
          name="name"
          type="text"
          autoComplete="name"
          placeholder={copy.placeholders.name}
          maxLength={fieldLimits.name}
          required={copy.required.includes('name')}
          disabled={loading}
          value={fields.name}
          onChange={(event) => setField('name', event.target.value)}
        />
        <Field
          id={`${id}-email`}
          label={copy.labels.email}
          name="email"
          type="email"
          autoComplete="email"
          placeholder={copy.placeholders.email}
          maxLength={fieldLimits.email}
          required={copy.required.includes('email')}
          disabled={loading}
          value={fields.email}
          onChange={(event) => setField('email', event.target.value)}
        />
        <Field
          multiline
          id={`${id}-message`}
          label={copy.labels.message}
          name="message"
          placeholder={copy.placeholders.message}
          maxLength={fieldLimits.message}
          required={copy.required.includes('message')}
          disabled={loading}
          value={fields.message}
          onChange={(event) => setField('message', event.target.value)}
        />
        <Honeypot
          id={`${id}-website`}
          value={fields.website}
          onChange={(value) => setField('website', value)}
        />

        {status === 'success' ? (
          <Banner tone="success" title={outcomes.success.title}>
            {outcomes.success.text}
          </Banner>
        ) : null}
        {status === 'duplicate' ? (
          <Banner tone="duplicate" title={outcomes.duplicate.title}>
            {outcomes.duplicate.text}
          </Banner>
        ) : null}
        {status === 'error' ? (
          <Banner tone="error" title={outcomes.error.title}>
            {errorMessage ?? outcomes.error.text}
          </Banner>
        ) : null}

        <div className="flex flex-col gap-3 sm:flex-row sm:flex-wrap">
          {copy.actions}
          <button
            type="submit"
            className={copy.submitStyle === 'secondary' ? formSecondaryButton : formPrimaryButton}
            disabled={!canSubmit}
          >
            {loading ? 'Sending...' : copy.submitLabel}
          </button>
          {status === 'success' || status === 'duplicate' || status === 'error' ? (
            <button type="button" className={formSecondaryButton} onClick={reset}>
              Reset
            </button>
          ) : null}
        </div>
        {copy.footer}
      </form>
    </div>
  );
}
