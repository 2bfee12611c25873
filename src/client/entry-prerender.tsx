import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { publicConfigPlaceholders } from '../shared/public-config';
import { AppRoutes } from './app/app-routes';
import { PublicConfigProvider } from './app/public-config';
import { StaticRouter } from './app/router';

/** The home route's markup, placed into index.html at build time. */
export function render(): string {
  return renderToString(
    <StrictMode>
      {/* The server puts the configured URLs in place of these at start (index-page.ts). */}
      <PublicConfigProvider value={publicConfigPlaceholders}>
        <StaticRouter location="/">
          <AppRoutes />
        </StaticRouter>
      </PublicConfigProvider>
    </StrictMode>,
  );
}
