import { useCallback, useSyncExternalStore } from 'react';
import { zonedTime } from '../../../shared/zoned-time';

const noChange = () => () => {};

/**
 * When a sale's price goes back (DESIGN.md "Prices and promotions"). The server writes it in
 * UTC; after hydration React renders it again in the visitor's time zone (useSyncExternalStore's
 * server snapshot, then the browser's), on a line of its own with its height kept, so nothing
 * moves. At the end it says so (a new visit shows the regular price, which is what the
 * checkout then charges).
 */
export function SaleEnd({ endsAt, what = 'Sale' }: { endsAt: string; what?: string }) {
  const text = useSyncExternalStore(
    noChange,
    () => zonedTime(endsAt),
    () => zonedTime(endsAt, 'UTC'),
  );
  const subscribeToEnd = useCallback(
    (changed: () => void) => {
      // setTimeout takes at most 2^31-1 ms (about 24.8 days); a later end is checked then.
      const left = Math.min(Math.max(Date.parse(endsAt) - Date.now(), 0), 2 ** 31 - 1);
      const timer = setTimeout(changed, left + 50);
      return () => clearTimeout(timer);
    },
    [endsAt],
  );
  const ended = useSyncExternalStore(
    subscribeToEnd,
    () => Date.now() >= Date.parse(endsAt),
    () => false,
  );
  return (
    <p className="min-h-6 w-full text-sm font-semibold text-clay-700" data-testid="sale-end">
      {ended ? (
        what === 'Sale' ? (
          'This sale has ended: the regular price applies.'
        ) : (
          `${what} has ended: the regular price applies.`
        )
      ) : (
        <>
          {what} ends <time dateTime={endsAt}>{text}</time>
        </>
      )}
    </p>
  );
}
