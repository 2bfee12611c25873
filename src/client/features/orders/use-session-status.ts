import type { SessionStatus } from '../../../shared/orders/order-api';
import { useFetched } from '../../lib/use-fetched';
import { fetchSessionStatus } from './session-status-request';

/** How the thank-you page asks about a payment: soon, then a little less often, for a minute. */
export const confirmationTiming = {
  firstDelayMs: 1500,
  backoff: 1.25,
  maxDelayMs: 5000,
  giveUpAfterMs: 60_000,
};

export type Confirmation =
  | { phase: 'confirming' }
  /** Still pending (or never answered) when the wait ran out. */
  | { phase: 'unconfirmed' }
  | { phase: 'settled'; session: Exclude<SessionStatus, { status: 'pending' }> };

/**
 * Asks about the session's order until it is no longer pending, or until the wait runs out;
 * stops asking once `isCurrent()` says the answer is no longer wanted.
 */
function confirm(sessionId: string, isCurrent: () => boolean): Promise<Confirmation> {
  const started = Date.now();
  return new Promise((resolve) => {
    async function ask(delay: number) {
      if (!isCurrent()) return;
      const session = await fetchSessionStatus(sessionId);
      if (!isCurrent()) return;
      if (session && session.status !== 'pending') {
        resolve({ phase: 'settled', session });
        return;
      }
      if (Date.now() - started >= confirmationTiming.giveUpAfterMs) {
        resolve({ phase: 'unconfirmed' });
        return;
      }
      setTimeout(
        () => void ask(Math.min(delay * confirmationTiming.backoff, confirmationTiming.maxDelayMs)),
        delay,
      );
    }
    void ask(confirmationTiming.firstDelayMs);
  });
}

/**
 * Polls the session's order until it is no longer pending, or until the wait runs out.
 * `retry` starts a fresh wait.
 */
export function useSessionStatus(sessionId: string) {
  const { data, loading, reload } = useFetched(sessionId, (isCurrent) =>
    confirm(sessionId, isCurrent),
  );
  const confirmation: Confirmation = !loading && data ? data : { phase: 'confirming' };
  return { confirmation, retry: reload };
}
