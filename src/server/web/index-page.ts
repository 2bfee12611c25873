import { promisify } from 'node:util';
import zlib from 'node:zlib';
import {
  PUBLIC_CONFIG_ELEMENT_ID,
  publicConfigPlaceholders,
  type PublicConfig,
  type PublicLinks,
} from '../../shared/public-config';
import { COPYRIGHT_YEAR_PLACEHOLDER, SERVED_YEAR_KEY } from '../../shared/copyright-year';
import { paths } from '../../shared/paths';
import { escapeHtml } from '../mail/escape-html';

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

/** The built page without one prerendered route's `<template data-route>`. */
function withoutTemplate(html: string, route: string): string {
  const start = html.indexOf(`<template data-route="${route}">`);
  if (start === -1) return html;
  const end = html.indexOf('</template>', start);
  if (end === -1) throw new Error(`index.html has no end to the template of ${route}.`);
  return html.slice(0, start) + html.slice(end + '</template>'.length);
}

/**
 * The built index.html with the configured URLs and the year (the current one unless given) in
 * place of the prerender placeholders, and the public settings with that year embedded for the
 * screens the browser renders itself.
 *
 * With verified purchases, the prerendered thank-you page (which thanks anyone and links the
 * public DOWNLOAD_URL) is left out, so the app renders that route once it has asked the server
 * about the payment; the URL itself appears nowhere in the page.
 */
export function renderIndexPage(
  html: string,
  config: PublicConfig,
  year = new Date().getUTCFullYear(),
): string {
  const shown = config.verifiedPurchases ? { ...config, downloadUrl: '' } : config;
  let page = config.verifiedPurchases ? withoutTemplate(html, paths.thankYou) : html;
  page = page.replaceAll(COPYRIGHT_YEAR_PLACEHOLDER, String(year));
  for (const key of Object.keys(publicConfigPlaceholders) as (keyof PublicLinks)[]) {
    page = page.replaceAll(
      `"${publicConfigPlaceholders[key]}"`,
      () => `"${escapeHtml(shown[key])}"`,
    );
  }
  const data = `<script type="application/json" id="${PUBLIC_CONFIG_ELEMENT_ID}">${scriptSafeJson({ ...shown, [SERVED_YEAR_KEY]: year })}</script>`;
  if (!page.includes('</head>')) throw new Error('index.html has no </head> to embed settings in.');
  return page.replace('</head>', () => `    ${data}\n  </head>`);
}

export type CompressedPage = { plain: Buffer; br: Buffer; gzip: Buffer };

export async function compressPage(html: string): Promise<CompressedPage> {
  const plain = Buffer.from(html);
  return { plain, br: await brotli(plain), gzip: await gzip(plain, { level: 9 }) };
}

/**
 * A page rendered for the current UTC year and compressed once, rendered again on the first
 * request after New Year so the footer never shows last year.
 */
export function pageOfTheYear(
  render: (year: number) => string,
  now: () => Date = () => new Date(),
): () => Promise<CompressedPage> {
  let current: { year: number; page: Promise<CompressedPage> } | undefined;
  return () => {
    const year = now().getUTCFullYear();
    if (current?.year !== year) current = { year, page: compressPage(render(year)) };
    return current.page;
  };
}
