import { orderSessionPath, type SessionStatus } from '../../../shared/orders/order-api';
import { api } from '../../lib/api-client';

/** The order behind a Checkout session; undefined when the server could not be asked. */
export async function fetchSessionStatus(sessionId: string): Promise<SessionStatus | undefined> {
  try {
    return await api.get<SessionStatus>(orderSessionPath(sessionId));
  } catch {
    return undefined;
  }
}
