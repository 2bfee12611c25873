import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type MailApiRequest = {
  method: string;
  path: string;
  authorization: string | undefined;
  contentType: string | undefined;
  body: unknown;
};

/** How the fake service answers: a status and JSON (or raw text), or never ('hang'). */
export type MailApiReply = { status: number; json?: unknown; text?: string } | 'hang';

export type MailApiServer = {
  url: string;
  requests: MailApiRequest[];
  reply(next: MailApiReply): void;
  close(): Promise<void>;
};

/**
 * A local HTTP server speaking the email-sending service's run protocol (POST /v1/run),
 * the one third-party part that cannot run here.
 */
export async function startMailApiServer(): Promise<MailApiServer> {
  const requests: MailApiRequest[] = [];
  let next: MailApiReply = { status: 200, json: { send_email_status: 'success' } };
  const hanging = new Set<ServerResponse>();

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: unknown = raw;
      try {
        body = JSON.parse(raw);
      } catch {
        // Keep the raw text; the test asserts on it.
      }
      requests.push({
        method: request.method ?? '',
        path: request.url ?? '',
        authorization: request.headers.authorization,
        contentType: request.headers['content-type'],
        body,
      });
      if (next === 'hang') {
        hanging.add(response);
        return;
      }
      response.statusCode = next.status;
      if (next.json !== undefined) {
        response.setHeader('content-type', 'application/json');
        response.end(JSON.stringify(next.json));
      } else {
        response.end(next.text ?? '');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    reply(reply) {
      next = reply;
    },
    close() {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
