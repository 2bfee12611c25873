import { useEffect } from 'react';

/** Static pages start at the top, whatever the previous screen's scroll position was. */
export function useScrollToTop(): void {
  useEffect(() => {
    // 'instant': the stylesheet asks for smooth scrolling, which is for in-page jumps only.
    window.scrollTo({ top: 0, left: 0, behavior: 'instant' });
  }, []);
}
