import { createListSender } from './broadcasts/list-sender';
import { markListBounced } from './list/list-service';
import { createDeliveryWorker } from './mail/delivery-worker';
import type { MailJob, MailJobDeps, MailJobFactories } from './mail/mail-job';

/**
 * What each mail job of mail/mail-job.ts is: composed here, above the capabilities, since the
 * list's sender and bounces belong to broadcasts/ and list/, which build on mail/.
 * A new sender is one more entry here (and its name in MAIL_JOB_NAMES).
 */
export const mailJobs: MailJobFactories = {
  deliveries: ({ db, mailer, log, config }: MailJobDeps): MailJob =>
    createDeliveryWorker({
      db,
      mailer,
      log,
      retryDelaysMs: config.mailRetryDelaysMs,
      mailTimeoutMs: config.mailTimeoutMs,
      // A list email the server refused for good: its address is marked bounced.
      onPermanentFailure: (delivery) => markListBounced(db, delivery),
    }),
  // Broadcasts and sequence steps: on the same pooled mailer, leaving a connection to the
  // deliveries, within the rate all instances share.
  broadcasts: ({ db, mailer, log, config, visitorsWaiting }: MailJobDeps): MailJob =>
    createListSender({ db, mailer, log, config, visitorsWaiting }),
};
