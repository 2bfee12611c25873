import http from 'node:http';
import https from 'node:https';
import type { MailSettings } from '../config/load-config';
import type { MailTransport } from './transports';

type ApiSettings = Extract<MailSettings, { transport: 'api' }>;

type RunReply = { send_email_status?: unknown; error?: unknown; outputs?: RunReply };

/** Connections kept open to the mail API: each send reuses one instead of a new handshake. */
const MAX_SOCKETS = 10;

/**
 * SPEC.md's email-sending service: POST {url}/v1/run with a bearer key. A message's extra
 * headers (a list email's List-Unsubscribe pair) go as `inputs.headers`, name → value. Only a reply whose
 * send_email_status is 'success' counts as sent; its error field explains a failure. One
 * keep-alive agent per transport (one transport per process), so sends share connections.
 */
export function apiTransport(settings: ApiSettings): MailTransport {
  const endpoint = new URL(`${settings.url.replace(/\/+$/, '')}/v1/run`);
  const secure = endpoint.protocol === 'https:';
  const agent = secure
    ? new https.Agent({ keepAlive: true, maxSockets: MAX_SOCKETS })
    : new http.Agent({ keepAlive: true, maxSockets: MAX_SOCKETS });
  return {
    async send(mail, signal) {
      const payload = JSON.stringify({
        model: settings.model,
        inputs: {
          receivers: mail.to.join(','),
          title: mail.subject,
          body_html: mail.html,
          project_id: settings.projectId,
          // A list email's List-Unsubscribe and List-Unsubscribe-Post, for the provider to set.
          ...(mail.headers ? { headers: mail.headers } : {}),
        },
      });
      const { status, body } = await post(
        secure ? https : http,
        endpoint,
        agent,
        payload,
        settings.key,
        signal,
      );
      let reply: RunReply = {};
      try {
        reply = JSON.parse(body) as RunReply;
      } catch {
        // A reply that is not JSON is reported by status below.
      }
      const result = reply.outputs ?? reply;
      const ok = status >= 200 && status < 300;
      if (ok && result.send_email_status === 'success') return;
      const reason = typeof result.error === 'string' && result.error ? result.error : undefined;
      throw new Error(
        `Mail API answered ${status}${reason ? `: ${reason}` : ` with send_email_status ${JSON.stringify(result.send_email_status ?? null)}`}`,
      );
    },
    parallel: MAX_SOCKETS,
    async close() {
      agent.destroy();
    },
  };
}

function post(
  client: typeof http | typeof https,
  url: URL,
  agent: http.Agent,
  payload: string,
  key: string,
  signal: AbortSignal,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = client.request(
      url,
      {
        method: 'POST',
        agent,
        signal,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
          authorization: `Bearer ${key}`,
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}
