import { StrictMode, startTransition } from 'react';
import { ROUTE_PENDING_ATTRIBUTE } from '../../shared/prerendered-routes';
import { createRoot, hydrateRoot, type Root } from 'react-dom/client';
import { AppRoutes } from './app-routes';
import type { PublicConfig } from '../../shared/public-config';
import { PublicConfigProvider } from '../routing/public-config';
import { HashRouter, parseHashLocation } from '../routing/router';

/** True when a location hash selects the home route: '', '#', '#/', '#/?…' or '#/#…'. */
export function isHomeHash(hash: string): boolean {
  const pathname = hash.replace(/^#/, '').split(/[?#]/)[0];
  return pathname === '' || pathname === '/';
}

/**
 * Starts the app in `container`. The HTML holds a prerendered route: home, or the one the boot
 * script moved in and named in `data-route` (prerendered-routes.ts). It is hydrated when the
 * hash asks for that route; any other route would not match that markup, so the container is
 * cleared and rendered from scratch.
 */
export function mountApp(
  container: HTMLElement,
  config: PublicConfig,
  hash = window.location.hash,
): Root {
  const prerendered = container.dataset.route ?? '/';
  const app = (
    <StrictMode>
      <PublicConfigProvider value={config}>
        <HashRouter hydratedFrom={prerendered}>
          <AppRoutes />
        </HashRouter>
      </PublicConfigProvider>
    </StrictMode>
  );
  // firstElementChild, not hasChildNodes: the unfilled placeholder is a comment node.
  const route = isHomeHash(hash) ? '/' : parseHashLocation(hash).pathname;
  if (route === prerendered && container.firstElementChild !== null) {
    // As a transition, hydration yields to the browser every few milliseconds instead of
    // holding the main thread for the whole page in one task; an event on a part not yet
    // hydrated makes React hydrate it at once.
    let root!: Root;
    startTransition(() => {
      root = hydrateRoot(container, app);
    });
    return root;
  }
  container.replaceChildren();
  delete container.dataset.route;
  // The boot scripts hide the prerendered home page while another route loads.
  container.hidden = false;
  document.documentElement.removeAttribute(ROUTE_PENDING_ATTRIBUTE);
  const root = createRoot(container);
  root.render(app);
  return root;
}
