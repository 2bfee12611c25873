/** Slot for the contact form (SPEC.md §2 "Contact form"); the forms capability fills it. */
export function ContactForm({ className }: { className?: string }) {
  return <div data-form-slot="contact-form" className={className} />;
}
