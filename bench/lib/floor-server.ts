import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { compressPage } from '../../src/server/web/index-page';
import { pageEncoding } from '../../src/server/web/static-site';
import { buildFloor, type Floor } from './floor';

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'date', 'transfer-encoding']);

type RawResponse = { status: number; headers: Record<string, string>; body: Buffer };

/** GET without decoding: the bytes and headers exactly as the server sent them. */
export function rawGet(url: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: Object.fromEntries(
            Object.entries(response.headers).map(([name, value]) => [
              name,
              Array.isArray(value) ? value.join(', ') : String(value),
            ]),
          ),
          body: Buffer.concat(chunks),
        }),
      );
    });
    request.on('error', reject);
  });
}

/** The floor of the home page `homeUrl` serves now: its identity body and its headers. */
export async function fetchFloor(homeUrl: string): Promise<Floor> {
  const home = await rawGet(homeUrl, { 'accept-encoding': 'identity' });
  if (home.status !== 200) throw new Error(`${homeUrl} answered ${home.status}`);
  if (home.headers['content-encoding']) {
    throw new Error(`${homeUrl} sent ${home.headers['content-encoding']} for identity`);
  }
  return buildFloor(home.body.toString('utf8'), home.headers);
}

export type FloorServer = { url: string; floor: Floor; close(): Promise<void> };

/**
 * Serves the floor of `appUrl`'s home page at `/`, compressed as the app compresses its page
 * (same function, same encoding choice), with the home response's headers; every other path
 * (CSS, images, favicon) is fetched once from the app with the request's Accept-Encoding and
 * then answered from memory, like a static file server with everything in its page cache.
 */
export async function startFloorServer(appUrl: string): Promise<FloorServer> {
  const origin = appUrl.replace(/\/+$/, '');
  const floor = await fetchFloor(`${origin}/`);
  const page = await compressPage(floor.html);
  const cache = new Map<string, Promise<RawResponse>>();

  const server = http.createServer((request, response) => {
    const accepted = request.headers['accept-encoding'];
    const pathname = new URL(request.url ?? '/', 'http://floor').pathname;
    if (pathname === '/' || pathname === '/index.html') {
      const encoding = pageEncoding(accepted);
      const body = encoding ? page[encoding] : page.plain;
      response.writeHead(200, {
        ...floor.headers,
        ...(encoding ? { 'content-encoding': encoding } : {}),
        'content-length': body.length,
      });
      response.end(body);
      return;
    }
    const key = `${request.url}\n${accepted ?? ''}`;
    let cached = cache.get(key);
    if (!cached) {
      cached = rawGet(`${origin}${request.url}`, accepted ? { 'accept-encoding': accepted } : {});
      cache.set(key, cached);
    }
    cached.then(
      ({ status, headers, body }) => {
        const kept = Object.entries(headers).filter(([name]) => !HOP_BY_HOP.has(name));
        response.writeHead(status, {
          ...Object.fromEntries(kept),
          'content-length': body.length,
        });
        response.end(body);
      },
      (error: unknown) => {
        cache.delete(key);
        response.writeHead(502).end(String(error));
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    floor,
    close: () =>
      new Promise((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
