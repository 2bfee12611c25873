/** Slot for the refund request form (SPEC.md §2 "Refund form"); the forms capability fills it. */
export function RefundForm() {
  return <div data-form-slot="refund-form" />;
}
