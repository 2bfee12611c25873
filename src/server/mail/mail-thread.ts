import type { FastifyBaseLogger } from 'fastify';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Config } from '../config/load-config';
import type { AppDatabase } from '../db/database';
import { pollFor } from './delivery-worker';
import { mailJobWork, type MailJob, type MailJobName } from './mail-job';
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
import { createVisitorLoad, type VisitorLoad } from './visitor-load';

/** The mail thread's connections to the database: claims, outcomes and renewals are short. */
const THREAD_POOL_SIZE = 4;
/**
 * A bounded young generation: the thread's objects are short-lived messages and rows, and V8's
 * default lets it grow to tens of megabytes under a burst (the memory goal counts every MB).
 * At 4 MB a broadcast spent its time collecting: 1,680 messages a second where 16 MB sends
 * 2,100, with less RSS growth (+43 against +55 MB in `npm run bench -- --only broadcast`).
 */
const RESOURCE_LIMITS = { maxYoungGenerationSizeMb: 16 };
/** After a crash of the thread, a new one starts after this long (no busy loop of crashes). */
const RESTART_MS = 1_000;
/** With no mail to send for this long, the thread ends (a new one starts when mail is due). */
const IDLE_MS = 60_000;
/** Beyond MAIL_TIMEOUT_MS, what the thread may take to stop or close before it is ended. */
const STOP_MARGIN_MS = 5_000;

/**
 * The mail work of one instance, off the thread that answers requests: the jobs of mail-job.ts
 * and the one pooled mailer run in a worker thread with a database pool of its own. Requests
 * commit their rows and wake a job by name; a request that waits on an email (a sign-in code,
 * the free guide) sends it through `mailer`, on the thread's pool, and gets the same result as
 * from an in-thread mailer. The thread runs only while there is mail to send: a wake, a send or
 * due work found by a cheap check every poll (mailJobWork) starts it, and IDLE_MS without any
 * ends it, so an idle instance carries no second heap (the memory goal).
 */
export type MailThread = {
  /** Sends on the thread's pooled transport; never throws, like every Mailer. */
  mailer: Mailer;
  /** The jobs, each with the delivery worker's shape, driven from this thread. */
  job(name: MailJobName): MailJob;
  /** Whether a thread runs now: only while there is mail to send, and IDLE_MS after. */
  running(): boolean;
  /** The requests this instance is answering, which list mail makes way for. */
  visitorLoad: VisitorLoad;
  /** Ends the thread once the requests' own sends are done: mailer and pool closed. */
  close(): Promise<void>;
};

/**
 * The worker's entry: beside this module in the bundle (dist/server/mail-worker.js, an entry of
 * scripts/build.mjs); from the sources (tsx, vitest) src/server/mail-worker.ts, loaded through tsx's hooks,
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
  const entry = new URL('../mail-worker.ts', import.meta.url).href;
  return new Worker(
    `import(${JSON.stringify(tsxApi)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); });`,
    { eval: true, workerData: data, execArgv: [], resourceLimits: RESOURCE_LIMITS },
  );
}

type Running = {
  worker: Worker;
  sends: Map<number, { handedOver?: () => void; resolve: (result: SendResult) => void }>;
  waiting: { stopped: (() => void)[]; closed: (() => void)[] };
};

export function startMailThread(options: {
  config: Config;
  database: Pick<AppDatabase, 'url' | 'db'>;
  log: FastifyBaseLogger;
  /** How long without mail to send before the thread ends (default IDLE_MS). */
  idleMs?: number;
}): MailThread {
  const { config, log } = options;
  const { db } = options.database;
  const idleMs = options.idleMs ?? IDLE_MS;
  const visitorLoad = createVisitorLoad();
  const data: MailThreadData = {
    config,
    databaseUrl: options.database.url,
    poolSize: THREAD_POOL_SIZE,
    logLevel: LOG_LEVELS[log.level as LogLevelName] ?? Infinity,
    visitorLoad: visitorLoad.buffer,
  };
  let nextId = 0;
  let parallel = 10;
  /** The jobs run (between the app's ready and its close). */
  let jobsRunning = false;
  let closing = false;
  let lastActivity = Date.now();
  let current: Running | undefined;
  /** Threads told to end, until they have. */
  const ending = new Set<Promise<void>>();
  let poll: NodeJS.Timeout | undefined;
  let checking = false;

  function spawn(): Running {
    const running: Running = {
      worker: workerFor(data),
      sends: new Map(),
      waiting: { stopped: [], closed: [] },
    };
    const thread = running.worker;
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
          running.sends.get(message.id)?.handedOver?.();
          return;
        case 'sent':
          running.sends.get(message.id)?.resolve(message.result);
          running.sends.delete(message.id);
          return;
        case 'stopped':
        case 'closed':
          for (const done of running.waiting[message.type].splice(0)) done();
          return;
      }
    });
    thread.on('error', (error) => log.error({ err: error }, 'The mail thread failed'));
    thread.on('exit', (code) => {
      // Whatever the thread still owed is over: a send it held is recorded as not sent (its
      // delivery is retried), and a stop or close waiting for it is done.
      for (const send of running.sends.values()) {
        send.resolve({ status: 'failed', error: `the mail thread ended (exit code ${code})` });
      }
      running.sends.clear();
      for (const done of [
        ...running.waiting.stopped.splice(0),
        ...running.waiting.closed.splice(0),
      ])
        done();
      if (current !== running) return;
      current = undefined;
      log.error({ code }, 'The mail thread ended unexpectedly; starting a new one');
      setTimeout(() => {
        if (jobsRunning && !closing) ensure();
      }, RESTART_MS).unref();
    });
    return running;
  }

  /** The running thread, started (with its jobs, once the app runs them) if there is none. */
  function ensure(): Running {
    if (current) return current;
    current = spawn();
    if (jobsRunning) current.worker.postMessage({ type: 'start' } satisfies ToMailThread);
    return current;
  }

  /** Posts `message` and waits for the thread's answer, its end, or the bound. */
  function ask(running: Running, message: ToMailThread, answer: keyof Running['waiting']) {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, config.mailTimeoutMs + STOP_MARGIN_MS);
      running.waiting[answer].push(() => {
        clearTimeout(timer);
        resolve();
      });
      running.worker.postMessage(message);
    });
  }

  /** Stops a thread's jobs (claims handed back), closes its mailer and pool, and ends it. */
  function end(running: Running): Promise<void> {
    const ended = (async () => {
      await ask(running, { type: 'stop' }, 'stopped');
      await ask(running, { type: 'close' }, 'closed');
      await running.worker.terminate();
    })();
    ending.add(ended);
    return ended.finally(() => ending.delete(ended));
  }

  /** Every poll: start the thread when mail is due, end it after IDLE_MS without any. */
  async function check() {
    if (checking || !jobsRunning) return;
    checking = true;
    try {
      // One after the other: one connection of the pool, not one per job, stays open for it.
      let work = false;
      for (const due of Object.values(mailJobWork)) if (!work) work = await due(db);
      if (!jobsRunning) return;
      if (work) {
        lastActivity = Date.now();
        ensure();
      } else if (current && current.sends.size === 0 && Date.now() - lastActivity >= idleMs) {
        const idle = current;
        current = undefined;
        void end(idle);
      }
    } catch (error) {
      log.warn({ err: error }, 'Could not look for mail to send');
    } finally {
      checking = false;
    }
  }

  const mailer: Mailer = {
    send(message, handedOver) {
      lastActivity = Date.now();
      const running = ensure();
      nextId += 1;
      const id = nextId;
      return new Promise<SendResult>((resolve) => {
        running.sends.set(id, { handedOver, resolve });
        running.worker.postMessage({ type: 'send', id, message } satisfies ToMailThread);
      });
    },
    get parallel() {
      return parallel;
    },
    // The thread closes the transport with the pool: see close().
    close: async () => {},
  };

  let stopping: Promise<void> | undefined;
  /** The jobs start and stop together: each thread runs them all. */
  async function stopJobs() {
    jobsRunning = false;
    clearInterval(poll);
    await Promise.all([current ? ask(current, { type: 'stop' }, 'stopped') : undefined, ...ending]);
  }
  const job = (name: MailJobName): MailJob => ({
    start() {
      if (jobsRunning || closing) return;
      jobsRunning = true;
      current?.worker.postMessage({ type: 'start' } satisfies ToMailThread);
      poll = setInterval(() => void check(), pollFor(config.mailRetryDelaysMs));
      poll.unref();
      void check();
    },
    wake() {
      lastActivity = Date.now();
      ensure().worker.postMessage({ type: 'wake', job: name } satisfies ToMailThread);
    },
    stop: () => (stopping ??= stopJobs()),
  });

  let closed: Promise<void> | undefined;
  return {
    mailer,
    job,
    running: () => current !== undefined,
    visitorLoad,
    close: () =>
      (closed ??= (async () => {
        await (stopping ??= stopJobs());
        closing = true;
        const last = current;
        current = undefined;
        await Promise.all([last ? end(last) : undefined, ...ending]);
      })()),
  };
}
