import type { FastifyBaseLogger } from 'fastify';
import { sql, type Kysely } from 'kysely';
import type { Config } from '../config/load-config';
import type { Database } from '../db/schema';
import type { Mailer } from './mailer';

/** What every mail job gets: the database, the one pooled mailer, the log and the settings. */
export type MailJobDeps = {
  db: Kysely<Database>;
  mailer: Mailer;
  log: FastifyBaseLogger;
  config: Config;
  /** Whether the instance is answering requests now (its mail thread's view of visitor-load.ts). */
  visitorsWaiting?: () => boolean;
};

/** A job that sends mail from a queue table: the delivery worker's shape. */
export type MailJob = {
  start(): void;
  /** A row was queued and committed: look now instead of at the next poll. */
  wake(): void;
  /** Stops claiming, waits for the sends in flight to be recorded, hands back the rest. */
  stop(): Promise<void>;
};

/**
 * The jobs that send mail, by the name the request thread wakes them with. They run together
 * on one mailer (its pool of connections is shared), in the mail thread of each instance, or
 * in the app's own thread where no mail thread runs (tests that build the app in-process).
 * What each one is, is composed above the capabilities (src/server/mail-jobs.ts).
 */
export const MAIL_JOB_NAMES = ['deliveries', 'broadcasts'] as const;
export type MailJobName = (typeof MAIL_JOB_NAMES)[number];

/** How each job is made from the shared deps. */
export type MailJobFactories = Record<MailJobName, (deps: MailJobDeps) => MailJob>;

/**
 * Whether a job has work now or holds claims, in one cheap statement each: the request thread
 * asks it to start the mail thread only when there is mail to send, and to let it end once
 * there is none (an idle instance then carries no second heap).
 */
export const mailJobWork: Record<MailJobName, (db: Kysely<Database>) => Promise<boolean>> = {
  deliveries: async (db) => {
    const { rows } = await sql<{ work: boolean }>`
      select exists (
        select 1 from mail_deliveries
        where status = 'pending' and next_attempt_at <= now()) as work`.execute(db);
    return rows[0]?.work === true;
  },
  broadcasts: async (db) => {
    const { rows } = await sql<{ work: boolean }>`
      select exists (
          select 1 from broadcasts
          where kind = 'broadcast'
            and (status = 'sending' or (status = 'scheduled' and scheduled_at <= now())))
        or exists (
          select 1 from broadcast_recipients r join broadcasts b on b.id = r.broadcast_id
          where b.status = 'sending' and r.status = 'pending' and r.next_attempt_at <= now())
        as work`.execute(db);
    return rows[0]?.work === true;
  },
};

/** Every job, made from its factory, started and stopped together. */
export function createMailJobs(
  factories: MailJobFactories,
  deps: MailJobDeps,
): Record<MailJobName, MailJob> {
  return Object.fromEntries(MAIL_JOB_NAMES.map((name) => [name, factories[name](deps)])) as Record<
    MailJobName,
    MailJob
  >;
}

export function isMailJobName(name: unknown): name is MailJobName {
  return typeof name === 'string' && (MAIL_JOB_NAMES as readonly string[]).includes(name);
}
