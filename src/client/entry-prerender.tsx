import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { createPath, Router, type Navigator } from 'react-router';
import { AppRoutes } from './app/app-routes';

function refuseNavigation(): never {
  throw new Error('The prerendered page cannot navigate.');
}

// Links must come out as '#/…', exactly as HashRouter writes them in the browser; hydration
// would not correct a different href.
const hashNavigator: Navigator = {
  createHref: (to) => '#' + (typeof to === 'string' ? to : createPath(to)),
  go: refuseNavigation,
  push: refuseNavigation,
  replace: refuseNavigation,
};

/** The home route's markup, placed into index.html at build time. */
export function render(): string {
  return renderToString(
    <StrictMode>
      <Router location="/" navigator={hashNavigator} static>
        <AppRoutes />
      </Router>
    </StrictMode>,
  );
}
