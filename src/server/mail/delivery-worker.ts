import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { claimDue, deliveryMessage, markFailed, markSent } from './delivery-store';
import type { Mailer } from './mailer';

export type DeliveryWorkerOptions = {
  db: Kysely<Database>;
  mailer: Mailer;
  log: FastifyBaseLogger;
  retryDelaysMs: number[];
  mailTimeoutMs: number;
  /** How often to look for due rows when nothing wakes the worker (default from the delays). */
  pollMs?: number;
  /** Rows claimed at a time. */
  batchSize?: number;
};

export type DeliveryWorker = {
  start(): void;
  /** Looks for due rows now (a new delivery was queued) instead of at the next poll. */
  wake(): void;
  /** Stops polling and waits for the sends in flight to be recorded. */
  stop(): Promise<void>;
};

/** A claim outlives any send it covers: the send is abandoned at mailTimeoutMs. */
export function leaseFor(mailTimeoutMs: number): number {
  return mailTimeoutMs * 2 + 5_000;
}

/** Poll often enough for short test delays, at most every 5 s for the default delays. */
export function pollFor(retryDelaysMs: number[]): number {
  return Math.min(5_000, Math.max(50, Math.min(...retryDelaysMs) / 2));
}

/**
 * The retry worker every instance runs: claims due deliveries, sends each through the pooled
 * mailer, and records the outcome. A visitor never waits for it.
 */
export function createDeliveryWorker(options: DeliveryWorkerOptions): DeliveryWorker {
  const { db, mailer, log, retryDelaysMs } = options;
  const pollMs = options.pollMs ?? pollFor(retryDelaysMs);
  const batchSize = options.batchSize ?? 20;
  const leaseMs = leaseFor(options.mailTimeoutMs);
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = true;

  async function deliverDue(): Promise<number> {
    const claimed = await claimDue(db, batchSize, leaseMs);
    await Promise.all(
      claimed.map(async (delivery) => {
        const result = await mailer.send(deliveryMessage(delivery));
        if (result.status === 'sent') {
          await markSent(db, delivery);
          log.info(
            { delivery: delivery.id, attempts: delivery.attempts },
            'Queued email delivered',
          );
          return;
        }
        const state = await markFailed(db, delivery, result.error, retryDelaysMs);
        if (state === 'failed') {
          log.error(
            { delivery: delivery.id, attempts: delivery.attempts, error: result.error },
            'Email delivery failed after its last retry',
          );
        }
      }),
    );
    return claimed.length;
  }

  function schedule(ms: number) {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(run, ms);
    timer.unref();
  }

  function run() {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    again = false;
    running = (async () => {
      try {
        // A full batch means more may be due: keep going until a batch comes back short.
        while (!stopped && (await deliverDue()) === batchSize);
      } catch (error) {
        log.warn({ err: error }, 'Mail delivery worker could not reach the database');
      }
    })().finally(() => {
      running = undefined;
      schedule(again ? 0 : pollMs);
    });
  }

  return {
    start() {
      if (!stopped) return;
      stopped = false;
      schedule(0);
    },
    wake() {
      if (!stopped) schedule(0);
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
