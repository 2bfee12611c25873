import { useEffect, useEffectEvent } from 'react';

/** How long typing pauses before a search runs. */
export const SEARCH_DELAY_MS = 300;

/**
 * Calls `settle(value)` once `value` has stayed the same for `delayMs`, unless it equals
 * `current` (what is already applied). A new value restarts the wait.
 */
export function useDebounced<T>(
  value: T,
  current: T,
  settle: (value: T) => void,
  delayMs = SEARCH_DELAY_MS,
): void {
  const onSettled = useEffectEvent(settle);
  useEffect(() => {
    if (Object.is(value, current)) return;
    const timer = setTimeout(() => onSettled(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, current, delayMs]);
}
