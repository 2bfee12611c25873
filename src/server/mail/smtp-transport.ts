import nodemailer from 'nodemailer';
import MailComposer from 'nodemailer/lib/mail-composer';
import type { MailTransport } from './transports';

/** Connections the pool keeps open to the SMTP server, each reused for many messages. */
const POOL_CONNECTIONS = 10;

/**
 * Real delivery over SMTP (SMTP_URL); nodemailer reads TLS and auth options from the URL.
 * One pooled transporter per process: every email reuses an open connection instead of a
 * new TCP and SMTP handshake.
 */
export function smtpTransport(url: string, timeoutMs: number): MailTransport {
  const transporter = nodemailer.createTransport({
    url,
    pool: true,
    maxConnections: POOL_CONNECTIONS,
    maxMessages: Infinity,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
  });
  return {
    async send(mail, signal) {
      // Composed into one buffer first: streamed, the message reaches the socket in dozens of
      // small writes, one system call each.
      const raw = await new MailComposer(mail).compile().build();
      const sending = transporter.sendMail({ envelope: { from: mail.from, to: mail.to }, raw });
      let onAbort = () => {};
      try {
        await new Promise<void>((resolve, reject) => {
          onAbort = () => reject(signal.reason as Error);
          signal.addEventListener('abort', onAbort, { once: true });
          sending.then(() => resolve(), reject);
        });
      } finally {
        signal.removeEventListener('abort', onAbort);
      }
    },
    async close() {
      transporter.close();
    },
  };
}
