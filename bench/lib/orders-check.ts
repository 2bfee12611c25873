import type { OrderTally } from '../orders-bench-routes';

/** What the webhook loads left in the database, against what the load generator saw. */
export type OrdersCheck = {
  orders: number;
  /** checkout.session.completed events the webhook recorded. */
  events: number;
  /** Sessions whose delivery was answered 2xx. */
  answered: number;
  /** Orders of deliveries still in flight when a load stopped (fulfilled, never answered). */
  unanswered: number;
};

/**
 * Checks that every recorded event made exactly one order with exactly one link and
 * `emailsPerOrder` queued emails, that every answered session has its order, and that the
 * orders nobody saw answered are no more than the requests a stopped load can leave in
 * flight. Throws with every problem found.
 */
export function checkOrders(
  orders: OrderTally[],
  events: number,
  answered: Iterable<string>,
  options: { emailsPerOrder: number; inFlightLimit: number },
): OrdersCheck {
  const problems: string[] = [];
  const bySession = new Map(orders.map((order) => [order.session_id, order]));
  if (bySession.size !== orders.length) problems.push('two orders share a session id');
  if (orders.length !== events) {
    problems.push(`${orders.length} orders for ${events} recorded checkout events`);
  }
  const wrongLinks = orders.filter((order) => order.links !== 1);
  if (wrongLinks.length > 0) {
    problems.push(
      `${wrongLinks.length} orders without exactly one link (e.g. ${wrongLinks[0]!.links})`,
    );
  }
  const wrongEmails = orders.filter((order) => order.emails !== options.emailsPerOrder);
  if (wrongEmails.length > 0) {
    problems.push(
      `${wrongEmails.length} orders without exactly ${options.emailsPerOrder} emails (e.g. ${wrongEmails[0]!.emails})`,
    );
  }
  const answeredSet = new Set(answered);
  const missing = [...answeredSet].filter((session) => !bySession.has(session));
  if (missing.length > 0) {
    problems.push(`${missing.length} answered sessions have no order (e.g. ${missing[0]})`);
  }
  const unanswered = orders.length - (answeredSet.size - missing.length);
  if (unanswered > options.inFlightLimit) {
    problems.push(
      `${unanswered} orders were never answered; at most ${options.inFlightLimit} can be in flight when loads stop`,
    );
  }
  if (problems.length > 0) throw new Error(`Orders check failed: ${problems.join('; ')}`);
  return { orders: orders.length, events, answered: answeredSet.size, unanswered };
}
