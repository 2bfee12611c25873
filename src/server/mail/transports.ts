import type { OutgoingMail } from './mail-message';

/** Delivers one message or throws; `signal` aborts it when the send timeout is reached. */
export type MailTransport = {
  send(mail: OutgoingMail, signal: AbortSignal): Promise<void>;
  /**
   * Sends it carries at once (its pooled connections). A send beyond that waits for a free
   * connection while its timeout runs, so the delivery worker never starts more.
   */
  parallel: number;
  close(): Promise<void>;
};
