import { deliveryApi } from '../../features/mail/delivery-api-client';
import { DeliveriesPanel } from '../../features/mail/deliveries-panel';

/** The owner's email log (DESIGN.md "Mail delivery"): what was sent, what is retried, what failed. */
export function AdminDeliveriesPage() {
  return (
    <section aria-labelledby="admin-deliveries-heading">
      <div className="mb-6">
        <h2 id="admin-deliveries-heading" className="text-2xl font-semibold text-sage-800">
          Deliveries
        </h2>
        <p className="mt-1 text-ink-muted">
          Every email the site sends you about a record. Failed sends are retried on their own;
          resend any of them here.
        </p>
      </div>
      <DeliveriesPanel api={deliveryApi} />
    </section>
  );
}
