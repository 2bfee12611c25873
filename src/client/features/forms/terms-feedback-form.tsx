/** Slot for the terms feedback form (SPEC.md §2 "Terms feedback form"); the forms capability fills it. */
export function TermsFeedbackForm() {
  return <div data-form-slot="terms-feedback-form" />;
}
