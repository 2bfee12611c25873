import type { Config } from '../config/load-config';
import type { MailJobName } from './mail-job';
import type { MailMessage, SendResult } from './mail-message';

/** What the mail thread starts with. */
export type MailThreadData = {
  config: Config;
  /** The app's database, for a pool of the thread's own. */
  databaseUrl: string;
  poolSize: number;
  /** The app logger's level: lines below it are dropped in the thread, never posted. */
  logLevel: number;
  /** The requests being answered (visitor-load.ts): list mail starts its sends between them. */
  visitorLoad: SharedArrayBuffer;
};

/** From the request thread to the mail thread. */
export type ToMailThread =
  | { type: 'start' }
  | { type: 'wake'; job: MailJobName }
  /** An email a request waits on (codes, the free guide): sent now on the shared pool. */
  | { type: 'send'; id: number; message: MailMessage }
  /** Stops the jobs: their sends in flight recorded, their other claims handed back. */
  | { type: 'stop' }
  /** Closes the mailer and the pool (after the requests' own sends); the thread then ends. */
  | { type: 'close' };

/** From the mail thread to the request thread. */
export type FromMailThread =
  | { type: 'ready'; parallel: number }
  | { type: 'handedOver'; id: number }
  | { type: 'sent'; id: number; result: SendResult }
  | { type: 'stopped' }
  | { type: 'closed' }
  | { type: 'log'; level: LogLevelName; bindings: object; obj: object; msg: string | undefined };

export type LogLevelName = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/** pino's numbers for its levels (silent is above them all). */
export const LOG_LEVELS: Record<LogLevelName, number> = {
  fatal: 60,
  error: 50,
  warn: 40,
  info: 30,
  debug: 20,
  trace: 10,
};
