import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import type { PublicConfig } from '../shared/public-config';
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

function app(location: string, config: PublicConfig) {
  return (
    <StrictMode>
      <PublicConfigProvider value={config}>
        <StaticRouter location={location}>
          <AppRoutes />
        </StaticRouter>
      </PublicConfigProvider>
    </StrictMode>
  );
}

/** A route's markup in one synchronous pass: lazy screens not loaded yet show their fallback. */
function renderOnce(location: string, config: PublicConfig, year: number): string {
  setPrerenderYear(year);
  try {
    return renderToString(app(location, config));
  } finally {
    setPrerenderYear(undefined);
  }
}

/**
 * A route's markup with the server's settings and published content, once its lazy screen has
 * loaded: the first pass starts the screen's import, later passes render it, with the Suspense
 * boundary resolved as the browser hydrates it. The server renders the public routes with it
 * (src/server/web/index-page.ts) from the bundle the build makes of this module.
 * (renderToString rather than an async prerender: that left React's context state behind in
 * the realm it ran in, which broke hydration tests in the same realm.)
 */
export async function renderRoute(
  location: string,
  config: PublicConfig,
  year: number,
): Promise<string> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const html = renderOnce(location, config, year);
    // <!--$!--> marks a boundary that suspended and rendered its fallback.
    if (!html.includes('<!--$!-->')) return html;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`The screen for ${location} did not load for prerendering.`);
}
