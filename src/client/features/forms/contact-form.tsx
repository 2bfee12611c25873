import { conversion, track } from '../../analytics/analytics';
import { VisitorForm, formSubmissionError, requestAlreadySent } from './visitor-form';

/** The contact form (SPEC.md §2 "Contact form"): purchase intent false. */
export function ContactForm({ className }: { className?: string }) {
  return (
    <VisitorForm
      form="contact"
      label="Contact form"
      className={className}
      header={
        <>
          <h2 className="text-3xl font-semibold tracking-tight text-sage-800">Contact Us</h2>
          <p className="mt-2 text-ink-muted">
            Have questions? Fill out the form and we&apos;ll get back to you.
          </p>
        </>
      }
      labels={{ name: 'Full Name', email: 'Email', message: 'Message' }}
      placeholders={{
        name: 'Your full name',
        email: 'you@example.com',
        message: 'How can we help you?',
      }}
      required={['name', 'email', 'message']}
      submitLabel="Send Message"
      outcomes={{
        success: {
          title: 'Message sent successfully! We will get back to you as soon as possible.',
        },
        duplicate: requestAlreadySent,
        error: formSubmissionError,
      }}
      footer={
        <p className="text-sm text-ink-muted">
          Your data is protected and will not be shared with third parties.
        </p>
      }
      onAttempt={() =>
        track('form_submission_attempt', { form_type: 'contact', purchase_intent: false })
      }
      onSuccess={() => conversion('support_inquiry')}
    />
  );
}
