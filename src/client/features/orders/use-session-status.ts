import { useCallback, useEffect, useState } from 'react';
import type { SessionStatus } from '../../../shared/orders/order-api';
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
 * Polls the session's order until it is no longer pending, or until the wait runs out.
 * `retry` starts a fresh wait.
 */
export function useSessionStatus(sessionId: string) {
  const [attempt, setAttempt] = useState(0);
  const [answer, setAnswer] = useState<{ key: string; confirmation: Confirmation }>({
    key: '',
    confirmation: { phase: 'confirming' },
  });
  const key = `${sessionId}:${attempt}`;

  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const started = Date.now();
    const settle = (confirmation: Confirmation) => {
      if (!stopped) setAnswer({ key, confirmation });
    };

    async function ask(delay: number) {
      const session = await fetchSessionStatus(sessionId);
      if (stopped) return;
      if (session && session.status !== 'pending') {
        settle({ phase: 'settled', session });
        return;
      }
      if (Date.now() - started >= confirmationTiming.giveUpAfterMs) {
        settle({ phase: 'unconfirmed' });
        return;
      }
      timer = setTimeout(
        () => void ask(Math.min(delay * confirmationTiming.backoff, confirmationTiming.maxDelayMs)),
        delay,
      );
    }

    void ask(confirmationTiming.firstDelayMs);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [sessionId, key]);

  const retry = useCallback(() => setAttempt((value) => value + 1), []);
  const confirmation: Confirmation =
    answer.key === key ? answer.confirmation : { phase: 'confirming' };
  return { confirmation, retry };
}
