import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { PUBLIC_CONFIG_ELEMENT_ID, type PublicConfig } from '../../shared/public-config';
import { SERVED_YEAR_KEY } from '../../shared/copyright-year';
import { paths } from '../../shared/paths';
import { escapeHtml } from '../mail/escape-html';
import { prerenderedRoutes } from '../../shared/prerendered-routes';

/** Where the build leaves room in index.html for the home route's markup and the other routes'. */
export const ROOT_PLACEHOLDER = '<!--app-html-->';
export const TEMPLATES_PLACEHOLDER = '<!--route-templates-->';

const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);

/**
 * JSON that is safe inside a `<script>` element: `<` is escaped so that no value can close
 * the element or open a comment. The element is `type="application/json"`, which the browser
 * never executes, so the Content-Security-Policy needs no 'unsafe-inline'.
 */
function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value)
    .replaceAll('<', '\\u003c')
    .replaceAll('\u2028', '\\u2028')
    .replaceAll('\u2029', '\\u2029');
}

/**
 * The page's title, description and social-sharing tags from the store content's `page`,
 * in place of the built ones. The social image is the widest JPEG of an uploaded image, at
 * `origin` (PUBLIC_URL), as link previews need a full address.
 */
export function pageHead(html: string, config: PublicConfig, origin: string): string {
  const { title, description, socialImage } = config.store.page;
  const image = socialImage && config.media[socialImage.file];
  const jpeg = image?.variants.filter((variant) => variant.format === 'jpeg').at(-1);
  const tags = [
    `<meta property="og:type" content="website" />`,
    `<meta property="og:title" content="${escapeHtml(title)}" />`,
    `<meta property="og:description" content="${escapeHtml(description)}" />`,
    ...(jpeg
      ? [
          `<meta property="og:image" content="${escapeHtml(origin + jpeg.url)}" />`,
          `<meta property="og:image:width" content="${jpeg.width}" />`,
          `<meta property="og:image:height" content="${jpeg.height}" />`,
          `<meta property="og:image:alt" content="${escapeHtml(socialImage?.alt ?? '')}" />`,
          `<meta name="twitter:card" content="summary_large_image" />`,
        ]
      : []),
  ];
  const head = [`<meta name="description" content="${escapeHtml(description)}" />`, ...tags];
  return html
    .replace(/<title>[^<]*<\/title>/, '')
    .replace(/<meta\s+name="description"\s+content="[^"]*"\s*\/?>/, '')
    .replace(
      '</head>',
      () => `    <title>${escapeHtml(title)}</title>\n    ${head.join('\n    ')}\n  </head>`,
    );
}

/** A public route's markup rendered with the settings and content (the build's render bundle). */
export type RenderRoute = (location: string, config: PublicConfig, year: number) => Promise<string>;

/**
 * The built index.html with the public routes rendered from the settings and the published
 * store content for `year` (home inside #root, every other route in a `<template data-route>`),
 * and the same settings and year embedded for the browser to hydrate with. Without a renderer
 * (a site built without it) the page is left to the browser to render.
 *
 * With verified purchases the thank-you page (which thanks anyone and links the public
 * DOWNLOAD_URL) is not rendered, so the app renders that route once it has asked the server
 * about the payment; the URL itself appears nowhere in the page.
 */
export async function renderIndexPage(
  html: string,
  config: PublicConfig,
  renderRoute: RenderRoute | undefined,
  year = new Date().getUTCFullYear(),
  origin = '',
): Promise<string> {
  const shown = config.verifiedPurchases ? { ...config, downloadUrl: '' } : config;
  if (!html.includes(ROOT_PLACEHOLDER) || !html.includes(TEMPLATES_PLACEHOLDER)) {
    throw new Error('index.html has no place for the rendered routes: run npm run build.');
  }
  let home = '';
  const templates: string[] = [];
  if (renderRoute) {
    home = await renderRoute(paths.home, shown, year);
    for (const route of prerenderedRoutes) {
      if (route === paths.home || (config.verifiedPurchases && route === paths.thankYou)) continue;
      templates.push(
        `<template data-route="${route}">${await renderRoute(route, shown, year)}</template>`,
      );
    }
  }
  const data = `<script type="application/json" id="${PUBLIC_CONFIG_ELEMENT_ID}">${scriptSafeJson({ ...shown, [SERVED_YEAR_KEY]: year })}</script>`;
  if (!html.includes('</head>')) throw new Error('index.html has no </head> to embed settings in.');
  return pageHead(html, config, origin)
    .replace(ROOT_PLACEHOLDER, () => home)
    .replace(TEMPLATES_PLACEHOLDER, () => templates.join(''))
    .replace('</head>', () => `    ${data}\n  </head>`);
}

export type CompressedPage = { plain: Buffer; br: Buffer; gzip: Buffer };

export async function compressPage(html: string): Promise<CompressedPage> {
  const plain = Buffer.from(html);
  return { plain, br: await brotli(plain), gzip: await gzip(plain, { level: 9 }) };
}

/**
 * The page rendered and compressed once per published version (or any other key: the prices
 * shown at the moment, say) and UTC year: again on the first request after a publish (the
 * store warms it at once), a change of the prices shown (a sale's end) or after New Year, so
 * the footer never shows last year. A render that fails is tried again on the next request.
 */
export function servedPage(
  render: (year: number) => Promise<string>,
  version: () => number | string,
  now: () => Date = () => new Date(),
): () => Promise<CompressedPage> {
  let current: { key: string; page: Promise<CompressedPage> } | undefined;
  return () => {
    const year = now().getUTCFullYear();
    const key = `${version()}/${year}`;
    if (current?.key !== key) {
      const entry = { key, page: render(year).then(compressPage) };
      entry.page.catch(() => {
        if (current === entry) current = undefined;
      });
      current = entry;
    }
    return current.page;
  };
}
