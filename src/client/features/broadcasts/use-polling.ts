import { useEffect } from 'react';

/** Runs `tick` every `ms` while `active`; stops when it is not, or the component goes. */
export function usePolling(active: boolean, ms: number, tick: () => void) {
  useEffect(() => {
    if (!active) return;
    const timer = window.setInterval(tick, ms);
    return () => window.clearInterval(timer);
    // `tick` is rebuilt on every render; `active` and `ms` say when to start or stop.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [active, ms]);
}
