import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config/load-config';
import { apiTransport } from './api-transport';
import { toOutgoing, type MailMessage, type SendResult } from './mail-message';
import { outboxTransport } from './outbox-transport';
import { smtpTransport } from './smtp-transport';
import type { MailTransport } from './transports';
import { replyWaitFor } from './reply-wait';

export { replyWaitFor };

/** The one way the app sends mail, whatever the configured transport. */
export type Mailer = {
  /** `handedOver` runs once only the server's reply to the whole message is awaited. */
  send(message: MailMessage, handedOver?: () => void): Promise<SendResult>;
  /** Sends the transport carries at once; more wait for a connection with their timeout running. */
  parallel: number;
  close(): Promise<void>;
};

export type MailerOptions = {
  /** Where the outbox prints each message for a person to read (default: stdout). */
  print?: (text: string) => void;
};

function transportFor(
  config: Config,
  logger: FastifyBaseLogger,
  { print = (text) => void process.stdout.write(text) }: MailerOptions,
): MailTransport {
  const { mail } = config;
  switch (mail.transport) {
    case 'outbox':
      return outboxTransport(config.dataDir, logger, print);
    case 'smtp':
      return smtpTransport(mail.url, config.mailTimeoutMs, replyWaitFor(config.mailTimeoutMs));
    case 'api':
      return apiTransport(mail);
  }
}

/**
 * Sends through the configured transport within MAIL_TIMEOUT_MS, and once the server has the
 * whole message, waits replyWaitFor() more for its reply. A failure or a timeout is logged and
 * returned as `failed`, never thrown: callers record it and carry on.
 */
export function createMailer(
  config: Config,
  logger: FastifyBaseLogger,
  options: MailerOptions = {},
): Mailer {
  const transport = transportFor(config, logger, options);
  return {
    async send(message, handedOver) {
      // A timer cleared once the send settles: AbortSignal.timeout would fire (and build an
      // abort error) for every message long after it was sent.
      const controller = new AbortController();
      const { signal } = controller;
      const giveUp = (reason: string, ms: number) =>
        setTimeout(() => controller.abort(new Error(reason)), ms);
      let timer = giveUp(`no answer within ${config.mailTimeoutMs} ms`, config.mailTimeoutMs);
      let waitingForReply = false;
      const onHandedOver = () => {
        if (waitingForReply || signal.aborted) return;
        waitingForReply = true;
        clearTimeout(timer);
        const replyWaitMs = replyWaitFor(config.mailTimeoutMs);
        timer = giveUp(`no reply to the end of the message within ${replyWaitMs} ms`, replyWaitMs);
        handedOver?.();
      };
      try {
        await transport.send(toOutgoing(message, config.mailFrom), signal, onHandedOver);
        return { status: 'sent' };
      } catch (error) {
        const reason = signal.aborted
          ? (signal.reason as Error).message
          : error instanceof Error
            ? error.message
            : String(error);
        logger.warn(
          { mail: { to: message.to, subject: message.subject }, transport: config.mail.transport },
          `Mail was not sent: ${reason}`,
        );
        // nodemailer names the SMTP reply code of a refusal: 5xx is permanent (RFC 5321).
        const code = (error as { responseCode?: unknown } | null)?.responseCode;
        const permanent = !signal.aborted && typeof code === 'number' && code >= 500 && code < 600;
        return { status: 'failed', error: reason, ...(permanent ? { permanent } : {}) };
      } finally {
        clearTimeout(timer);
      }
    },
    parallel: transport.parallel,
    close: () => transport.close(),
  };
}
