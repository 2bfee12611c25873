import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { COPYRIGHT_YEAR_PLACEHOLDER } from '../shared/copyright-year';
import { publicConfigPlaceholders } from '../shared/public-config';
import { AppRoutes } from './app/app-routes';
import { PublicConfigProvider } from './routing/public-config';
import { StaticRouter } from './routing/router';
import { setPrerenderYear } from './components/use-copyright-year';

export {
  APP_MODULES_ELEMENT_ID,
  appStartScript,
  bodyBootScript,
  headBootScript,
  prerenderedRoutes,
} from '../shared/prerendered-routes';

function app(location: string) {
  return (
    <StrictMode>
      {/* The server puts the configured URLs in place of these at start (index-page.ts). */}
      <PublicConfigProvider value={{ ...publicConfigPlaceholders, verifiedPurchases: false }}>
        <StaticRouter location={location}>
          <AppRoutes />
        </StaticRouter>
      </PublicConfigProvider>
    </StrictMode>
  );
}

/** A route's markup in one synchronous pass: lazy screens not loaded yet show their fallback. */
function renderOnce(location: string): string {
  setPrerenderYear(COPYRIGHT_YEAR_PLACEHOLDER);
  try {
    return renderToString(app(location));
  } finally {
    setPrerenderYear(undefined);
  }
}

/** The home route's markup (home is not lazy, so it renders in one pass). */
export function render(): string {
  return renderOnce('/');
}

/**
 * A route's markup once its lazy screen has loaded: the first pass starts the screen's import,
 * later passes render it, with the Suspense boundary resolved as the browser hydrates it.
 * (renderToString rather than an async prerender: that left React's context state behind in
 * the realm it ran in, which broke hydration tests in the same realm.)
 */
export async function renderRoute(location: string): Promise<string> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const html = renderOnce(location);
    // <!--$!--> marks a boundary that suspended and rendered its fallback.
    if (!html.includes('<!--$!-->')) return html;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`The screen for ${location} did not load for prerendering.`);
}
