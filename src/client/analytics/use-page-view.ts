import { useEffect } from 'react';
import { pageView, type PageName } from './analytics';

/** Records the screen's page view once it is shown. */
export function usePageView(page: PageName): void {
  useEffect(() => {
    pageView(page);
  }, [page]);
}
