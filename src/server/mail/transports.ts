import type { OutgoingMail } from './mail-message';

/** Delivers one message or throws; `signal` aborts it when the send timeout is reached. */
export type MailTransport = {
  send(mail: OutgoingMail, signal: AbortSignal): Promise<void>;
  close(): Promise<void>;
};
