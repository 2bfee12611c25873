import { SimplePage } from '../components/simple-page';

export function PrivacyPolicyPage() {
  return <SimplePage title="Privacy Policy" />;
}
