import { render } from '@testing-library/react';
import { Fragment, type ReactNode } from 'react';
import { HashRouter, parseHashLocation, useLocation } from '../../../src/client/routing/router';

/** Renders `ui` under the app's hash router, with the address at `path`. */
export function renderAtPath(path: string, ui: ReactNode) {
  window.history.replaceState(null, '', `#${path}`);
  const entries = window.history.length;
  const result = render(<HashRouter>{ui}</HashRouter>);
  return {
    ...result,
    /** The route's path now. */
    pathname: () => parseHashLocation(window.location.hash).pathname,
    /** How many history entries navigation added since rendering (0: it replaced). */
    addedEntries: () => window.history.length - entries,
  };
}

/** Shows the screen for the current path, or "Elsewhere" for any other path. */
export function PathSwitch({ screens }: { screens: Record<string, ReactNode> }) {
  const { pathname } = useLocation();
  return <Fragment key={pathname}>{screens[pathname] ?? <p>Elsewhere</p>}</Fragment>;
}
