import type { MailSettings } from '../config/load-config';
import type { MailTransport } from './transports';

type ApiSettings = Extract<MailSettings, { transport: 'api' }>;

type RunReply = { send_email_status?: unknown; error?: unknown; outputs?: RunReply };

/**
 * SPEC.md's email-sending service: POST {url}/v1/run with a bearer key. Only a reply whose
 * send_email_status is 'success' counts as sent; its error field explains a failure.
 */
export function apiTransport(settings: ApiSettings): MailTransport {
  const endpoint = `${settings.url.replace(/\/+$/, '')}/v1/run`;
  return {
    async send(mail, signal) {
      const response = await fetch(endpoint, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${settings.key}`,
        },
        body: JSON.stringify({
          model: settings.model,
          inputs: {
            receivers: mail.to.join(','),
            title: mail.subject,
            body_html: mail.html,
            project_id: settings.projectId,
          },
        }),
        signal,
      });
      const body = await response.text();
      let reply: RunReply = {};
      try {
        reply = JSON.parse(body) as RunReply;
      } catch {
        // A reply that is not JSON is reported by status below.
      }
      const result = reply.outputs ?? reply;
      if (response.ok && result.send_email_status === 'success') return;
      const reason = typeof result.error === 'string' && result.error ? result.error : undefined;
      throw new Error(
        `Mail API answered ${response.status}${reason ? `: ${reason}` : ` with send_email_status ${JSON.stringify(result.send_email_status ?? null)}`}`,
      );
    },
    async close() {},
  };
}
