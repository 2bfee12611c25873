import { useId, useState, type FormEvent } from 'react';
import { fieldLimits } from '../../../shared/forms/form-fields';
import { Banner, Field } from '../../components/form-parts';
import { formPrimaryButton } from '../../components/styles';
import { useStoreContent } from '../../routing/public-config';
import { requestNewLink } from './resend-link-request';

/** The same words for every address, so the form never tells who bought the bundle. */
export function resendLinkSent(productName: string): string {
  return `If that address bought the ${productName}, a new download link is on its way. Please check your inbox (and spam folder).`;
}

type State = { status: 'idle' | 'loading' | 'sent' } | { status: 'error'; message: string };

/** Asks for a new download link by email: the thank-you and download-link pages share it. */
export function ResendLinkForm({
  title = 'Send me a new download link',
  className,
}: {
  title?: string;
  className?: string;
}) {
  const id = useId();
  const { product } = useStoreContent();
  const [email, setEmail] = useState('');
  const [state, setState] = useState<State>({ status: 'idle' });
  const loading = state.status === 'loading';

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (loading) return;
    setState({ status: 'loading' });
    const outcome = await requestNewLink(email);
    setState(outcome.status === 'sent' ? { status: 'sent' } : outcome);
  }

  return (
    <section aria-labelledby={`${id}-heading`} className={className}>
      <h2 id={`${id}-heading`} className="font-serif text-2xl text-sage-800">
        {title}
      </h2>
      <p className="mt-2 text-ink-muted">
        Enter the email address you used at checkout and we will email you a fresh link.
      </p>
      <form
        aria-label="Request a new download link"
        noValidate
        className="mt-5 space-y-4"
        onSubmit={(event) => void submit(event)}
      >
        <Field
          id={`${id}-email`}
          label="Email used at checkout"
          name="email"
          type="email"
          autoComplete="email"
          placeholder="you@example.com"
          maxLength={fieldLimits.email}
          required
          disabled={loading}
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
        {state.status === 'sent' ? (
          <Banner tone="success" title="Request received">
            {resendLinkSent(product.name)}
          </Banner>
        ) : null}
        {state.status === 'error' ? (
          <Banner tone="error" title="Could not send a new link">
            {state.message}
          </Banner>
        ) : null}
        <button type="submit" className={formPrimaryButton} disabled={loading}>
          {loading ? 'Sending...' : 'Send new link'}
        </button>
      </form>
    </section>
  );
}
