import { conversion, track } from '../../analytics/analytics';
import { VisitorForm, requestAlreadySent } from './visitor-form';

/** The refund request form (SPEC.md §2 "Refund form"), with its Italian error text (§8). */
export function RefundForm() {
  return (
    <VisitorForm
      form="refund"
      label="Refund request form"
      labels={{ name: 'Full Name *', email: 'Email *', message: 'Message *' }}
      placeholders={{
        name: 'Your full name',
        email: 'you@example.com',
        message: 'Describe your refund request or questions...',
      }}
      required={['name', 'email', 'message']}
      submitLabel="Submit Request"
      outcomes={{
        success: {
          title: 'Request submitted successfully!',
          text: 'We will contact you as soon as possible.',
        },
        duplicate: requestAlreadySent,
        error: {
          title: 'Submission Error',
          text: "Si è verificato un errore durante l'invio della richiesta. Riprova più tardi.",
        },
      }}
      onAttempt={() => track('form_submission_attempt', { form_type: 'refund_inquiry' })}
      onSuccess={() => conversion('refund_inquiry')}
    />
  );
}
