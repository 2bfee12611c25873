import { SimplePage } from '../components/simple-page';

export function RefundPolicyPage() {
  return <SimplePage title="Refund Policy" />;
}
