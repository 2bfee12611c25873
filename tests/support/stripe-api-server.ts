import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export type StripeApiServer = {
  /** http://127.0.0.1:<port>, for STRIPE_API_URL. */
  url: string;
  /** Sessions the server knows, by id. */
  sessions: Map<string, unknown>;
  /** Requests received: method, path and the Authorization header. */
  requests: { method: string; path: string; authorization: string | undefined }[];
  /** The form fields of each Checkout Session created, as Stripe's API receives them. */
  created: Record<string, string>[];
  /** While true, creating a session answers Stripe's 500 api_error. */
  failing: boolean;
  close(): Promise<void>;
};

/**
 * A local server speaking the part of Stripe's API the store uses (create and retrieve a
 * Checkout Session), with Stripe's error shapes: Stripe itself cannot run here.
 */
export async function startStripeApiServer(): Promise<StripeApiServer> {
  const sessions = new Map<string, unknown>();
  const requests: StripeApiServer['requests'] = [];
  const created: StripeApiServer['created'] = [];
  let sequence = 0;
  const server = createServer(async (request, response) => {
    const path = (request.url ?? '').split('?')[0]!;
    requests.push({
      method: request.method ?? '',
      path,
      authorization: request.headers.authorization,
    });
    let body = '';
    for await (const chunk of request) body += String(chunk);
    const send = (status: number, answer: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json', 'request-id': 'req_test' });
      response.end(JSON.stringify(answer));
    };
    if (!request.headers.authorization?.startsWith('Bearer sk_')) {
      return send(401, {
        error: { type: 'invalid_request_error', message: 'Invalid API Key provided' },
      });
    }
    if (path === '/v1/checkout/sessions' && request.method === 'POST') {
      if (api.failing) {
        return send(500, { error: { type: 'api_error', message: 'Something went wrong' } });
      }
      const fields = Object.fromEntries(new URLSearchParams(body));
      created.push(fields);
      sequence += 1;
      const id = `cs_test_created${sequence}`;
      const session = {
        id,
        object: 'checkout.session',
        status: 'open',
        payment_status: 'unpaid',
        created: Math.floor(Date.now() / 1000),
        amount_total: Number(fields['line_items[0][price_data][unit_amount]']),
        currency: fields['line_items[0][price_data][currency]'],
        // Stripe keeps every metadata key the session was created with.
        metadata: Object.fromEntries(
          Object.entries(fields).flatMap(([key, value]) => {
            const name = /^metadata\[(.+)\]$/.exec(key)?.[1];
            return name ? [[name, value]] : [];
          }),
        ),
        success_url: fields.success_url,
        url: `https://checkout.stripe.test/c/pay/${id}`,
      };
      sessions.set(id, session);
      return send(200, session);
    }
    const match = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path);
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
  const api: StripeApiServer = {
    url: `http://127.0.0.1:${port}`,
    sessions,
    requests,
    created,
    failing: false,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
  return api;
}
