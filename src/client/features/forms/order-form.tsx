/** Slot for the order form (SPEC.md §2 "Order form"); the forms capability fills it. */
export function OrderForm() {
  return <div data-form-slot="order-form" />;
}
