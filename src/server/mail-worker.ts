/**
 * The mail thread's entry (a worker_threads Worker of each instance, see mail/mail-thread.ts): the
 * mail jobs and the one pooled mailer run here, on a database pool of their own, so composing
 * and sending email never holds up the thread that answers requests.
 */
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { openDatabase } from './db/database';
import { mailJobs } from './mail-jobs';
import { createMailJobs, isMailJobName } from './mail/mail-job';
import type { FromMailThread, MailThreadData, ToMailThread } from './mail/mail-thread-protocol';
import { createMailer } from './mail/mailer';
import { threadLogger } from './mail/thread-logger';
import { visitorsWaiting } from './mail/visitor-load';

/**
 * Below the request thread's CPU priority: when the cores are busy, answering visitors goes
 * first and mail waits its turn (it is queued and durable); when they are not, it goes at
 * once. Linux names this thread in /proc/thread-self; elsewhere it keeps the process's.
 */
const MAIL_THREAD_NICE = 10;
try {
  const threadId = Number(readlinkSync('/proc/thread-self').split('/').pop());
  setPriority(threadId, MAIL_THREAD_NICE);
} catch {
  // Not Linux, or not allowed: the same priority as the rest.
}

const port = parentPort!;
const { config, databaseUrl, poolSize, logLevel, visitorLoad } = workerData as MailThreadData;
const post = (message: FromMailThread) => port.postMessage(message);
const log = threadLogger(post, logLevel);
const database = await openDatabase({ databaseUrl, poolSize });
const mailer = createMailer(config, log);
const jobs = createMailJobs(mailJobs, {
  db: database.db,
  mailer,
  log,
  config,
  visitorsWaiting: visitorsWaiting(visitorLoad),
});

port.on('message', (message: ToMailThread) => {
  switch (message.type) {
    case 'start':
      for (const job of Object.values(jobs)) job.start();
      return;
    case 'wake':
      if (isMailJobName(message.job)) jobs[message.job].wake();
      return;
    case 'send':
      void mailer
        .send(message.message, () => post({ type: 'handedOver', id: message.id }))
        .then((result) => post({ type: 'sent', id: message.id, result }));
      return;
    case 'stop':
      void Promise.all(Object.values(jobs).map((job) => job.stop())).finally(() =>
        post({ type: 'stopped' }),
      );
      return;
    case 'close':
      void Promise.allSettled([mailer.close(), database.close()]).then(() => {
        post({ type: 'closed' });
        port.close();
      });
      return;
  }
});
post({ type: 'ready', parallel: mailer.parallel });
