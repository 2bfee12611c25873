/**
 * The floor a page is measured against: the very HTML the home page serves, with every script
 * and module preload removed, sent with the home response's headers and compression. A page
 * cannot paint before its own markup and CSS do without scripts, so its LCP over the floor's
 * is at least 1 when both are measured the same way.
 */

/** The markup and CSS of `html`, without any script or module preload. */
export function stripScripts(html: string): string {
  return html
    .replace(/<script\b[^>]*>[\s\S]*?<\/script>/gi, '')
    .replace(/<link\b[^>]*\brel="modulepreload"[^>]*>/gi, '');
}

/**
 * Headers that describe one response rather than the page (its length, date, encoding of this
 * body, connection, request id): the floor server sets its own.
 */
const PER_RESPONSE = new Set([
  'connection',
  'content-encoding',
  'content-length',
  'date',
  'keep-alive',
  'transfer-encoding',
  'x-request-id',
]);

/** The page's own headers (CSP, cache-control, content-type, vary …) from a home response. */
export function pageHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers)
      .map(([name, value]) => [name.toLowerCase(), value] as const)
      .filter(([name]) => !PER_RESPONSE.has(name)),
  );
}

export type Floor = { html: string; headers: Record<string, string> };

/** The floor of a home page served as `html` with `headers`. */
export function buildFloor(html: string, headers: Record<string, string>): Floor {
  return { html: stripScripts(html), headers: pageHeaders(headers) };
}
