import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { COPYRIGHT_YEAR_PLACEHOLDER } from '../shared/copyright-year';
import { publicConfigPlaceholders } from '../shared/public-config';
import { AppRoutes } from './app/app-routes';
import { PublicConfigProvider } from './app/public-config';
import { StaticRouter } from './app/router';
import { PrerenderYearProvider } from './components/use-copyright-year';

/** The home route's markup, placed into index.html at build time. */
export function render(): string {
  return renderToString(
    <StrictMode>
      {/* The server puts the configured URLs in place of these at start (index-page.ts). */}
      <PublicConfigProvider value={publicConfigPlaceholders}>
        <PrerenderYearProvider value={COPYRIGHT_YEAR_PLACEHOLDER}>
          <StaticRouter location="/">
            <AppRoutes />
          </StaticRouter>
        </PrerenderYearProvider>
      </PublicConfigProvider>
    </StrictMode>,
  );
}
