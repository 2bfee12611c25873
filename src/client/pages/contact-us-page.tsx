import { SimplePage } from '../components/simple-page';

export function ContactUsPage() {
  return <SimplePage title="Get in Touch" />;
}
