import { PassThrough, pipeline, type Readable } from 'node:stream';
import nodemailer from 'nodemailer';
import type { MailTransport } from './transports';

/** Sends carried at once, each on a connection reused for many messages. */
const POOL_CONNECTIONS = 10;
const BACKSTOP_MS = 1_000;

type StreamPluginMail = {
  data: { handedOver?: () => void };
  message: { processFunc(process: (input: Readable) => Readable): void };
};

/**
 * Real delivery over SMTP (SMTP_URL); nodemailer reads TLS and auth options from the URL.
 * One pooled transporter per process: every email reuses an open connection instead of a
 * new TCP and SMTP handshake. Connecting and the greeting are bounded by the mailer's
 * `timeoutMs`; the socket may stay silent for `replyWaitMs`, the wait for the reply to the end
 * of the data.
 */
export function smtpTransport(url: string, timeoutMs: number, replyWaitMs: number): MailTransport {
  const transporter = nodemailer.createTransport({
    url,
    pool: true,
    // As many again for sends overdue for their reply, which leave their slots
    // (delivery-worker.ts); requests sending their own email use them too.
    maxConnections: POOL_CONNECTIONS * 2,
    maxMessages: Infinity,
    // The mailer's own timer (timeoutMs) ends a send first and names the wait it gave up on;
    // these only back it up.
    connectionTimeout: timeoutMs + BACKSTOP_MS,
    greetingTimeout: timeoutMs + BACKSTOP_MS,
    socketTimeout: replyWaitMs,
  });
  // The last stage of the message stream is read by the connection only after the server took
  // the envelope and the DATA command; its end means the whole message went to the socket.
  transporter.use('stream', (mail, done) => {
    const { data, message } = mail as unknown as StreamPluginMail;
    const { handedOver } = data;
    if (handedOver) {
      message.processFunc((input) => {
        const output = new PassThrough();
        output.once('end', handedOver);
        return pipeline(input, output, () => {});
      });
    }
    done();
  });
  return {
    async send(mail, signal, handedOver) {
      // The signal goes to the pool too: at the timeout it takes a message still waiting for a
      // connection off the queue, or closes the connection carrying it (the next send gets a
      // fresh one). Without it the abandoned message stayed queued or on its connection and
      // was delivered after the delivery had been recorded as not sent (sent twice once
      // retried), and every new send waited behind such messages and timed out too.
      const sending = transporter.sendMail({
        ...mail,
        signal,
        handedOver,
      } as Parameters<typeof transporter.sendMail>[0]);
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
    parallel: POOL_CONNECTIONS,
    async close() {
      transporter.close();
    },
  };
}
