import { orderSessionPath, type SessionStatus } from '../../../shared/orders/order-api';
import { requestJson } from '../../lib/request-json';

/** The order behind a Checkout session; undefined when the server could not be asked. */
export async function fetchSessionStatus(sessionId: string): Promise<SessionStatus | undefined> {
  try {
    return await requestJson<SessionStatus>(orderSessionPath(sessionId));
  } catch {
    return undefined;
  }
}
