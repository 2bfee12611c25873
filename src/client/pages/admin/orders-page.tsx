import { OrdersPanel } from '../../features/orders/orders-panel';

/** The owner's orders (DESIGN.md "Selling for real"): who paid, their downloads and links. */
export function OrdersPage() {
  return (
    <section aria-labelledby="admin-orders-heading">
      <div className="mb-6">
        <h2 id="admin-orders-heading" className="text-2xl font-semibold text-sage-800">
          Orders
        </h2>
        <p className="mt-1 text-ink-muted">
          Every checkout Stripe reported, newest first. Send a buyer a fresh download link, or
          revoke an order&rsquo;s links.
        </p>
      </div>
      <OrdersPanel />
    </section>
  );
}
