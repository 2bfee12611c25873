import fp from 'fastify-plugin';
import type { DeliveryWorker } from './delivery-worker';
import { createMailJobs, mailJobs, type MailJob, type MailJobName } from './mail-jobs';

declare module 'fastify' {
  interface FastifyInstance {
    /** The jobs that send queued mail (mail-jobs.ts): wake one after committing its rows. */
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
export const mailQueuePlugin = fp(
  async (app) => {
    const thread = app.mailThread;
    const jobs = thread
      ? (Object.fromEntries(
          Object.keys(mailJobs).map((name) => [name, thread.job(name as MailJobName)]),
        ) as Record<MailJobName, MailJob>)
      : createMailJobs({
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
