import fp from 'fastify-plugin';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { publicConfigOf, type PageCode } from '../../shared/public-config';
import type { StoreContent } from '../../shared/store/store-content';
import { contentMedia } from '../store/files/content-files';
import { renderIndexPage, type RenderRoute } from './index-page';

/** The render bundle's entry, beside the built site: dist/render next to dist/client. */
export const RENDER_ENTRY = 'entry-prerender.js';

export function rendererFile(clientDir: string): string {
  return path.join(clientDir, '..', 'render', RENDER_ENTRY);
}

/**
 * The public routes' renderer the build makes of src/client/entry-prerender.tsx (the same
 * React components the browser hydrates), or undefined for a site built without it.
 */
export async function loadRenderer(clientDir: string): Promise<RenderRoute | undefined> {
  const file = rendererFile(clientDir);
  if (!existsSync(file)) return undefined;
  const module = (await import(pathToFileURL(file).href)) as { renderRoute: RenderRoute };
  return module.renderRoute;
}

/** The site's page as this instance serves it, rendered from any store content. */
export type Pages = {
  /** index.html with the public routes rendered from `store` for `year` (this one by default). */
  render(store: StoreContent, year?: number, code?: PageCode): Promise<string>;
};

declare module 'fastify' {
  interface FastifyInstance {
    /** Undefined without a built site (the API alone). */
    pages: Pages | undefined;
  }
}

/**
 * The built page and its renderer, loaded once: the static site serves the published content
 * with it, the Store page previews a draft with it.
 */
export const pagesPlugin = fp<{ clientDir?: string | undefined }>(
  async (app, { clientDir }) => {
    const indexFile = clientDir && path.join(clientDir, 'index.html');
    if (!clientDir || !indexFile || !existsSync(indexFile)) {
      if (clientDir) {
        app.log.warn(`No built site in ${clientDir}: run npm run build (API only for now).`);
      }
      app.decorate('pages', undefined);
      return;
    }
    const [html, renderRoute] = await Promise.all([
      readFile(indexFile, 'utf8'),
      loadRenderer(clientDir),
    ]);
    if (!renderRoute) {
      app.log.warn('The site was built without its page renderer: run npm run build.');
    }
    const settings = {
      downloadUrl: app.config.downloadUrl,
      verifiedPurchases: app.config.stripe !== undefined,
      checkoutSessions: app.config.stripe?.secretKey !== undefined,
      priceRules: app.config.priceRules,
    };
    app.decorate('pages', {
      render: async (store, year, code) => {
        const media = await contentMedia(app.database.db, store);
        return renderIndexPage(
          html,
          publicConfigOf(settings, store, media, code),
          renderRoute,
          year,
          app.config.publicUrl,
        );
      },
    } satisfies Pages);
  },
  { name: 'pages' },
);
