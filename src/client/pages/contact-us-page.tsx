import { SimplePage } from '../components/simple-page';
import { ContactForm } from '../features/forms/contact-form';

export function ContactUsPage() {
  return (
    <SimplePage title="Get in Touch">
      <ContactForm />
    </SimplePage>
  );
}
