import type { FastifyBaseLogger } from 'fastify';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Config } from '../config/load-config';
import type { AppDatabase } from '../db/database';
import type { MailJob, MailJobName } from './mail-jobs';
import type { SendResult } from './mail-message';
import {
  LOG_LEVELS,
  type FromMailThread,
  type LogLevelName,
  type MailThreadData,
  type ToMailThread,
} from './mail-thread-protocol';
import type { Mailer } from './mailer';
import { writeThreadLog } from './thread-logger';

/** The mail thread's connections to the database: claims, outcomes and renewals are short. */
const THREAD_POOL_SIZE = 4;
/**
 * A small young generation: the thread's objects are short-lived messages and rows, and V8's
 * default lets it grow to tens of megabytes under a burst (the memory goal counts every MB).
 */
const RESOURCE_LIMITS = { maxYoungGenerationSizeMb: 4 };
/** After a crash of the thread, a new one starts after this long (no busy loop of crashes). */
const RESTART_MS = 1_000;
/** Beyond MAIL_TIMEOUT_MS, what the thread may take to stop or close before it is ended. */
const STOP_MARGIN_MS = 5_000;

/**
 * The mail work of one instance, off the thread that answers requests: the jobs of mail-jobs.ts
 * and the one pooled mailer run in a worker thread with a database pool of its own. Requests
 * commit their rows and wake a job by name; a request that waits on an email (a sign-in code,
 * the free guide) sends it through `mailer`, on the thread's pool, and gets the same result as
 * from an in-thread mailer.
 */
export type MailThread = {
  /** Sends on the thread's pooled transport; never throws, like every Mailer. */
  mailer: Mailer;
  /** The jobs, each with the delivery worker's shape, driven from this thread. */
  job(name: MailJobName): MailJob;
  /** Ends the thread once the requests' own sends are done: mailer and pool closed. */
  close(): Promise<void>;
};

/**
 * The worker's entry: beside this module in the bundle (dist/server/mail-worker.js, an entry of
 * scripts/build.mjs); from the sources (tsx, vitest) the .ts file, loaded through tsx's hooks,
 * which a worker thread does not inherit.
 */
function workerFor(data: MailThreadData): Worker {
  if (!import.meta.url.endsWith('.ts')) {
    return new Worker(new URL('./mail-worker.js', import.meta.url), {
      workerData: data,
      resourceLimits: RESOURCE_LIMITS,
    });
  }
  const require = createRequire(import.meta.url);
  const tsxApi = pathToFileURL(
    path.join(path.dirname(require.resolve('tsx/package.json')), 'dist/esm/api/index.mjs'),
  ).href;
  const entry = new URL('./mail-worker.ts', import.meta.url).href;
  return new Worker(
    `import(${JSON.stringify(tsxApi)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); });`,
    { eval: true, workerData: data, execArgv: [], resourceLimits: RESOURCE_LIMITS },
  );
}

export function startMailThread(options: {
  config: Config;
  database: Pick<AppDatabase, 'url'>;
  log: FastifyBaseLogger;
}): MailThread {
  const { config, log } = options;
  const data: MailThreadData = {
    config,
    databaseUrl: options.database.url,
    poolSize: THREAD_POOL_SIZE,
    logLevel: LOG_LEVELS[log.level as LogLevelName] ?? Infinity,
  };
  const sends = new Map<
    number,
    { handedOver?: () => void; resolve: (result: SendResult) => void }
  >();
  const waiting = { stopped: [] as (() => void)[], closed: [] as (() => void)[] };
  let nextId = 0;
  let parallel = 10;
  let started = false;
  let closing = false;
  let worker = spawn();

  function spawn(): Worker {
    const thread = workerFor(data);
    // The server keeps the process alive; a thread that failed to end must not.
    thread.unref();
    thread.on('message', (message: FromMailThread) => {
      switch (message.type) {
        case 'log':
          writeThreadLog(log, message);
          return;
        case 'ready':
          parallel = message.parallel;
          return;
        case 'handedOver':
          sends.get(message.id)?.handedOver?.();
          return;
        case 'sent':
          sends.get(message.id)?.resolve(message.result);
          sends.delete(message.id);
          return;
        case 'stopped':
        case 'closed':
          for (const done of waiting[message.type].splice(0)) done();
          return;
      }
    });
    thread.on('error', (error) => log.error({ err: error }, 'The mail thread failed'));
    thread.on('exit', (code) => {
      // Whatever the thread still owed is over: a send it held is recorded as not sent (its
      // delivery is retried), and a stop or close waiting for it is done.
      for (const [id, send] of sends) {
        send.resolve({ status: 'failed', error: `the mail thread ended (exit code ${code})` });
        sends.delete(id);
      }
      for (const done of [...waiting.stopped.splice(0), ...waiting.closed.splice(0)]) done();
      if (closing || thread !== worker) return;
      log.error({ code }, 'The mail thread ended unexpectedly; starting a new one');
      setTimeout(() => {
        if (closing) return;
        worker = spawn();
        if (started) post({ type: 'start' });
      }, RESTART_MS).unref();
    });
    return thread;
  }

  function post(message: ToMailThread) {
    worker.postMessage(message);
  }

  /** Posts `message` and waits for the thread's answer, its end, or the bound. */
  function ask(message: ToMailThread, answer: keyof typeof waiting): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, config.mailTimeoutMs + STOP_MARGIN_MS);
      waiting[answer].push(() => {
        clearTimeout(timer);
        resolve();
      });
      post(message);
    });
  }

  const mailer: Mailer = {
    send(message, handedOver) {
      nextId += 1;
      const id = nextId;
      return new Promise<SendResult>((resolve) => {
        sends.set(id, { handedOver, resolve });
        post({ type: 'send', id, message });
      });
    },
    get parallel() {
      return parallel;
    },
    // The thread closes the transport with the pool: see close().
    close: async () => {},
  };

  let stopping: Promise<void> | undefined;
  /** The jobs start and stop together: the thread runs them all. */
  const stopJobs = () => (stopping ??= ask({ type: 'stop' }, 'stopped'));
  const job = (name: MailJobName): MailJob => ({
    start() {
      if (started) return;
      started = true;
      post({ type: 'start' });
    },
    wake() {
      post({ type: 'wake', job: name });
    },
    stop: stopJobs,
  });

  let closed: Promise<void> | undefined;
  return {
    mailer,
    job,
    close: () =>
      (closed ??= (async () => {
        await stopJobs();
        closing = true;
        await ask({ type: 'close' }, 'closed');
        await worker.terminate();
      })()),
  };
}
