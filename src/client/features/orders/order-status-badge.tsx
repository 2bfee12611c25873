import type { OrderStatus } from '../../../shared/orders/order-api';

export const orderStatusLabels: Record<OrderStatus, string> = {
  pending: 'Pending',
  paid: 'Paid',
  failed: 'Failed',
  review: 'Review',
  refunded: 'Refunded',
  disputed: 'Disputed',
};

const looks: Record<OrderStatus, string> = {
  pending: 'bg-sand-200 text-ink',
  paid: 'bg-sage-100 text-sage-800',
  failed: 'bg-red-100 text-red-800',
  review: 'bg-amber-100 text-amber-900',
  refunded: 'bg-sand-200 text-ink',
  disputed: 'bg-red-100 text-red-800',
};

/** The status as a coloured word, never colour alone. */
export function OrderStatusBadge({ status }: { status: OrderStatus }) {
  return (
    <span
      className={`inline-flex rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap ${looks[status]}`}
    >
      {orderStatusLabels[status]}
    </span>
  );
}
