import { SimplePage } from '../components/simple-page';
import { TermsFeedbackForm } from '../features/forms/terms-feedback-form';

export function TermsOfServicePage() {
  return (
    <SimplePage title="Terms of Service">
      <TermsFeedbackForm />
    </SimplePage>
  );
}
