import nodemailer from 'nodemailer';
import type { MailTransport } from './transports';

/** Real delivery over SMTP (SMTP_URL); nodemailer reads TLS and auth options from the URL. */
export function smtpTransport(url: string, timeoutMs: number): MailTransport {
  const transporter = nodemailer.createTransport({
    url,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
  });
  return {
    async send(mail, signal) {
      const sending = transporter.sendMail(mail);
      await new Promise<void>((resolve, reject) => {
        signal.addEventListener('abort', () => reject(signal.reason), { once: true });
        sending.then(() => resolve(), reject);
      });
    },
    async close() {
      transporter.close();
    },
  };
}
