import { SimplePage } from '../components/simple-page';
import { RefundForm } from '../features/forms/refund-form';

export function RefundPolicyPage() {
  return (
    <SimplePage title="Refund Policy">
      <RefundForm />
    </SimplePage>
  );
}
