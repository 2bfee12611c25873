import { StrictMode } from 'react';
import { createRoot, hydrateRoot, type Root } from 'react-dom/client';
import { AppRoutes } from './app-routes';
import { PublicConfigProvider, readPublicConfig } from './public-config';
import { HashRouter } from './router';

/** True when a location hash selects the home route: '', '#', '#/', '#/?…' or '#/#…'. */
export function isHomeHash(hash: string): boolean {
  const pathname = hash.replace(/^#/, '').split(/[?#]/)[0];
  return pathname === '' || pathname === '/';
}

/**
 * Starts the app in `container`. The HTML holds the prerendered home page, so it is hydrated
 * only when the hash asks for home; any other route would not match that markup, so the
 * container is cleared and rendered from scratch.
 */
export function mountApp(container: HTMLElement, hash = window.location.hash): Root {
  const app = (
    <StrictMode>
      <PublicConfigProvider value={readPublicConfig()}>
        <HashRouter>
          <AppRoutes />
        </HashRouter>
      </PublicConfigProvider>
    </StrictMode>
  );
  // firstElementChild, not hasChildNodes: the unfilled placeholder is a comment node.
  if (isHomeHash(hash) && container.firstElementChild !== null) {
    return hydrateRoot(container, app);
  }
  container.replaceChildren();
  // The boot script hides the prerendered home page while another route loads.
  container.hidden = false;
  const root = createRoot(container);
  root.render(app);
  return root;
}
