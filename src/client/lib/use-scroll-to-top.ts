import { useEffect } from 'react';

/** Static pages start at the top, whatever the previous screen's scroll position was. */
export function useScrollToTop(): void {
  useEffect(() => {
    window.scrollTo(0, 0);
  }, []);
}
