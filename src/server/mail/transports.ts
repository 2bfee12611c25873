import type { OutgoingMail } from './mail-message';

/**
 * Delivers one message or throws; `signal` aborts it when the send timeout is reached. A
 * transport that can tell calls `handedOver` once the server has the whole message and only
 * its reply is awaited: from then the mailer waits the longer final-reply bound (mailer.ts).
 */
export type MailTransport = {
  send(mail: OutgoingMail, signal: AbortSignal, handedOver: () => void): Promise<void>;
  /**
   * Sends it carries at once (its pooled connections), besides as many that handed over their
   * message and are overdue for the reply. A send beyond that waits for a free connection while
   * its timeout runs, so the delivery worker never starts more.
   */
  parallel: number;
  close(): Promise<void>;
};
