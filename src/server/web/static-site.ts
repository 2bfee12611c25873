import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import path from 'node:path';
import { errorBody } from '../http/errors';
import { servedPage, type CompressedPage } from './index-page';
import type { StoreContent } from '../../shared/store/store-content';
import { codedPage, lookUpCode } from '../codes/code-offer';

const HASHED_ASSET = /\/assets\//;
const INDEX_FILES = ['index.html', 'index.html.br', 'index.html.gz'];

/**
 * Serves the built SPA: hashed assets cached for a year, everything else (index.html,
 * favicon, downloads) revalidated on every visit so a deploy shows at once. index.html is
 * rendered with this instance's public settings and the published store content, again after
 * each publish and each New Year (see index-page.ts).
 */
export const staticSite: FastifyPluginAsync<{
  clientDir: string;
  privateFile?: string | undefined;
}> = async (app, options) => {
  const { pages } = app;
  if (!pages) return;
  // The prices shown change with time too (PRICE_RULES' windows, a sale's start and end), so
  // the page is rendered again when they do, on the first request after.
  const shown = () => {
    const { version, content } = app.store.published();
    const product = app.store.shownProduct();
    return { key: `${version}/${JSON.stringify(product)}`, content: { ...content, product } };
  };
  const page = servedPage(
    (year) => pages.render(shown().content, year),
    () => shown().key,
  );
  await page();
  app.store.onPublish(() => {
    page().catch((error: unknown) =>
      app.log.error({ err: error }, 'Could not render the page of the published version'),
    );
  });
  const codedPages = codePages(app, shown);
  const sendPage = async (request: FastifyRequest, reply: FastifyReply) => {
    const { code } = (request.query ?? {}) as Record<string, unknown>;
    if (typeof code === 'string' && code !== '') {
      return sendIndex(await codedPages(code), request, reply);
    }
    return sendIndex(await page(), request, reply);
  };
  app.get('/', sendPage);
  app.get('/index.html', sendPage);

  await app.register(fastifyStatic, {
    root: options.clientDir,
    wildcard: false,
    index: false,
    globIgnore: INDEX_FILES,
    allowedPath: (pathName, root) =>
      !options.privateFile || path.join(root, pathName) !== options.privateFile,
    preCompressed: true,
    cacheControl: false,
    setHeaders(res, filePath) {
      res.setHeader(
        'cache-control',
        HASHED_ASSET.test(filePath) ? 'public, max-age=31536000, immutable' : 'no-cache',
      );
    },
  });
};

/** Pages of codes kept rendered: the owner's few codes, and one for every text that is none. */
const CODED_PAGES = 32;

/**
 * The home page for /?code=…, rendered on the server with the code applied (its price struck
 * from the one without it) or its refusal said: cached per code and its state, like the page
 * itself, so a visit through a campaign's link costs one small query.
 */
function codePages(
  app: FastifyInstance,
  shown: () => { key: string; content: StoreContent },
): (text: string) => Promise<CompressedPage> {
  const pages = new Map<string, () => Promise<CompressedPage>>();
  return async (text) => {
    const now = shown();
    const lookup = await lookUpCode(app.database.db, text, now.content.product);
    const coded = codedPage(now.content.product, lookup);
    const key = `${now.key}/${JSON.stringify(coded.code)}/${lookup.usable ? lookup.discountCents : ''}`;
    let page = pages.get(key);
    if (!page) {
      const content = { ...now.content, product: coded.product };
      page = servedPage(
        (year) => app.pages!.render(content, year, coded.code),
        () => key,
      );
      if (pages.size >= CODED_PAGES) pages.delete(pages.keys().next().value!);
      pages.set(key, page);
    }
    return page();
  };
}

/** The encoding a page is sent in for an Accept-Encoding header: brotli, gzip or none. */
export function pageEncoding(acceptEncoding: string | undefined): 'br' | 'gzip' | null {
  const accepted = acceptEncoding ?? '';
  return /\bbr\b/.test(accepted) ? 'br' : /\bgzip\b/.test(accepted) ? 'gzip' : null;
}

function sendIndex(page: CompressedPage, request: FastifyRequest, reply: FastifyReply) {
  const encoding = pageEncoding(request.headers['accept-encoding']);
  reply
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-cache')
    .header('vary', 'accept-encoding');
  if (encoding) reply.header('content-encoding', encoding);
  return reply.send(encoding ? page[encoding] : page.plain);
}

/**
 * Routes live in the hash (SPEC.md §2), so a page address typed without it (/admin) is sent
 * to the same route inside the app; anything else is a JSON 404.
 */
export const notFound = fp(async (app) => {
  app.setNotFoundHandler(
    { preHandler: app.rateLimit({ max: 120, timeWindow: '1 minute' }) },
    (request: FastifyRequest, reply: FastifyReply) => {
      const { pathname } = new URL(request.url, 'http://localhost');
      const isPage =
        (request.method === 'GET' || request.method === 'HEAD') &&
        !pathname.startsWith('/api/') &&
        !path.extname(pathname) &&
        /^[\w/-]*$/.test(pathname) &&
        (request.headers.accept ?? '').includes('text/html');
      if (isPage) return reply.redirect(`/#${pathname.replace(/\/+$/, '') || '/'}`, 302);
      return reply
        .code(404)
        .send(errorBody(404, `There is nothing at ${request.method} ${pathname}.`));
    },
  );
});
