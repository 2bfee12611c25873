import { SimplePage } from '../components/simple-page';

export function TermsOfServicePage() {
  return <SimplePage title="Terms of Service" />;
}
