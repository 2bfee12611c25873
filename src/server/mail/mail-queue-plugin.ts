import fp from 'fastify-plugin';
import type { DeliveryWorker } from './delivery-worker';
import {
  createMailJobs,
  MAIL_JOB_NAMES,
  type MailJob,
  type MailJobFactories,
  type MailJobName,
} from './mail-job';

declare module 'fastify' {
  interface FastifyInstance {
    /** The jobs that send queued mail (mail-job.ts): wake one after committing its rows. */
    mailJobs: Record<MailJobName, MailJob>;
    /** The retry worker of mail_deliveries in this instance (mailJobs.deliveries). */
    deliveryWorker: DeliveryWorker;
  }
}

/**
 * Runs the mail jobs from the moment the app is ready until it closes (graceful shutdown waits
 * for the sends in flight to be recorded and hands back the other claims): in the mail thread
 * when the app has one, else on this thread.
 */
export const mailQueuePlugin = fp<{ jobs: MailJobFactories }>(
  async (app, options) => {
    const thread = app.mailThread;
    const jobs = thread
      ? (Object.fromEntries(MAIL_JOB_NAMES.map((name) => [name, thread.job(name)])) as Record<
          MailJobName,
          MailJob
        >)
      : createMailJobs(options.jobs, {
          db: app.database.db,
          mailer: app.mailer,
          log: app.log,
          config: app.config,
        });
    app.decorate('mailJobs', jobs);
    app.decorate('deliveryWorker', jobs.deliveries);
    app.addHook('onReady', async () => {
      for (const job of Object.values(jobs)) job.start();
    });
    app.addHook('preClose', async () => {
      await Promise.all(Object.values(jobs).map((job) => job.stop()));
    });
  },
  { name: 'mail-queue', dependencies: ['mail'] },
);
