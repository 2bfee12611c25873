import { conversion, track } from '../../analytics/analytics';
import { VisitorForm } from './visitor-form';

/** The terms of service feedback form (SPEC.md §2 "Terms feedback form"). */
export function TermsFeedbackForm() {
  return (
    <VisitorForm
      form="terms-feedback"
      label="Terms of service question form"
      labels={{ name: 'Full Name *', email: 'Email *', message: 'Your Question *' }}
      placeholders={{
        name: 'Your full name',
        email: 'you@example.com',
        message: 'Ask us anything about these terms...',
      }}
      required={['name', 'email', 'message']}
      submitLabel="Submit Question"
      outcomes={{
        success: {
          title: 'Question submitted successfully! We will get back to you as soon as possible.',
        },
        duplicate: {
          title: 'Email already registered!',
          text: 'You have already sent a question with this email.',
        },
        error: {
          title: 'Submission Error',
          text: 'An error occurred while submitting your feedback. Please try again later.',
        },
      }}
      footer={
        <p className="text-sm text-ink-muted">
          Your data is protected and will not be shared with third parties.
        </p>
      }
      onAttempt={() => track('form_submission_attempt', { form_type: 'terms_of_service_feedback' })}
      onSuccess={() => conversion('terms_feedback')}
    />
  );
}
