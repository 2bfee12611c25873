import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export type StripeApiServer = {
  /** http://127.0.0.1:<port>, for STRIPE_API_URL. */
  url: string;
  /** Sessions the server knows, by id. */
  sessions: Map<string, unknown>;
  /** Requests received: method, path and the Authorization header. */
  requests: { method: string; path: string; authorization: string | undefined }[];
  close(): Promise<void>;
};

/**
 * A local server speaking the part of Stripe's API the store uses (retrieve a Checkout
 * Session), with Stripe's error shape for an unknown id: Stripe itself cannot run here.
 */
export async function startStripeApiServer(): Promise<StripeApiServer> {
  const sessions = new Map<string, unknown>();
  const requests: StripeApiServer['requests'] = [];
  const server = createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0]!;
    requests.push({
      method: request.method ?? '',
      path,
      authorization: request.headers.authorization,
    });
    request.resume();
    const send = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json', 'request-id': 'req_test' });
      response.end(JSON.stringify(body));
    };
    const match = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path);
    if (!request.headers.authorization?.startsWith('Bearer sk_')) {
      return send(401, {
        error: { type: 'invalid_request_error', message: 'Invalid API Key provided' },
      });
    }
    const session =
      match && request.method === 'GET' ? sessions.get(decodeURIComponent(match[1]!)) : undefined;
    if (!session) {
      return send(404, {
        error: {
          type: 'invalid_request_error',
          code: 'resource_missing',
          message: `No such checkout.session: '${match?.[1] ?? path}'`,
          param: 'session',
        },
      });
    }
    return send(200, session);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    sessions,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
