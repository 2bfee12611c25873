import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import {
  claimDue,
  deliveryMessage,
  markFailed,
  markSent,
  releaseClaims,
  renewClaims,
  type ClaimedDelivery,
} from './delivery-store';
import { createBatchRecorder } from './batch-recorder';
import { replyWaitFor, type Mailer } from './mailer';

export type DeliveryWorkerOptions = {
  db: Kysely<Database>;
  mailer: Mailer;
  log: FastifyBaseLogger;
  retryDelaysMs: number[];
  mailTimeoutMs: number;
  /** How often to look for due rows when nothing wakes the worker (default from the delays). */
  pollMs?: number;
  /**
   * Sends in flight at most (default: the transport's connections), besides those overdue
   * for their reply. No more than the pool carries: a send waiting for a connection spends its
   * MAIL_TIMEOUT_MS in the queue, and a slow mail server then times out messages that never
   * reached it.
   */
  concurrency?: number;
  /**
   * Told of a delivery the mail server refused for good (an SMTP 5xx); true when it took care
   * of it (a list email: the address is marked bounced), so the delivery fails now instead of
   * being retried.
   */
  onPermanentFailure?(delivery: ClaimedDelivery): Promise<boolean>;
};

export type DeliveryWorker = {
  start(): void;
  /** Looks for due rows now (a new delivery was queued) instead of at the next poll. */
  wake(): void;
  /**
   * Stops claiming and waits, at most MAIL_TIMEOUT_MS, for the sends in flight to be recorded.
   * A send still waiting for the server's reply then keeps its claim until the lease runs out.
   */
  stop(): Promise<void>;
};

/**
 * The worker's claim, renewed every third of it while the worker holds the row: it outlives a
 * wait for a free slot and a send up to the hand-over of the message (MAIL_TIMEOUT_MS each).
 */
export function leaseFor(mailTimeoutMs: number): number {
  return mailTimeoutMs * 2 + 5_000;
}

/** A claim on a send that waits for the server's reply, when no worker renews it. */
export function replyLeaseFor(mailTimeoutMs: number): number {
  return replyWaitFor(mailTimeoutMs) + leaseFor(mailTimeoutMs);
}

/** Poll often enough for short test delays, at most every 5 s for the default delays. */
export function pollFor(retryDelaysMs: number[]): number {
  return Math.min(5_000, Math.max(50, Math.min(...retryDelaysMs) / 2));
}

/**
 * The delivery worker every instance runs: claims due deliveries, sends each through the
 * pooled mailer, and records the outcome. It claims the next rows while sends are in flight,
 * so the pool never idles waiting for the database, and a slow or hung send holds up only its
 * own row. A visitor never waits for it.
 */
export function createDeliveryWorker(options: DeliveryWorkerOptions): DeliveryWorker {
  const { db, mailer, log, retryDelaysMs } = options;
  const pollMs = options.pollMs ?? pollFor(retryDelaysMs);
  const concurrency = options.concurrency ?? mailer.parallel;
  // Rows held at once, sending or waiting to, besides the sends overdue for their reply. Their
  // claims are renewed while they are held, so no other instance claims them meanwhile.
  const maxHeld = concurrency * 2;
  const leaseMs = leaseFor(options.mailTimeoutMs);
  const recordSent = createBatchRecorder((batch: ClaimedDelivery[]) => markSent(db, batch));
  const waiting: ClaimedDelivery[] = [];
  const sending = new Map<Promise<void>, ClaimedDelivery>();
  /** Sends that handed the server the whole message and wait for its reply. */
  const awaitingReply = new Map<ClaimedDelivery, NodeJS.Timeout>();
  /**
   * Of those, the ones still waiting after MAIL_TIMEOUT_MS: a server that went silent may keep
   * them waiting for replyWaitFor(). They leave their slots to other sends (on the pool's
   * spare connections, as many again), so the rest of the queue goes out once it is back.
   */
  const overdue = new Set<ClaimedDelivery>();
  const counted = () => sending.size - overdue.size;
  let timer: NodeJS.Timeout | undefined;
  let renewing: NodeJS.Timeout | undefined;
  let claiming: Promise<void> | undefined;
  let again = false;
  let moreDue = false;
  let stopped = true;

  async function deliver(delivery: ClaimedDelivery) {
    const result = await mailer.send(deliveryMessage(delivery), () => awaitReply(delivery));
    clearTimeout(awaitingReply.get(delivery));
    awaitingReply.delete(delivery);
    overdue.delete(delivery);
    if (result.status === 'sent') {
      await recordSent(delivery);
      log.debug({ delivery: delivery.id, attempts: delivery.attempts }, 'Queued email delivered');
      return;
    }
    if (result.permanent && (await options.onPermanentFailure?.(delivery))) {
      await markFailed(db, delivery, result.error, []);
      log.warn(
        { delivery: delivery.id, error: result.error },
        'List email refused for good; the address is marked bounced',
      );
      return;
    }
    const state = await markFailed(db, delivery, result.error, retryDelaysMs);
    if (state === 'failed') {
      log.error(
        { delivery: delivery.id, attempts: delivery.attempts, error: result.error },
        'Email delivery failed after its last retry',
      );
    } else {
      log.warn(
        { delivery: delivery.id, attempts: delivery.attempts, error: result.error },
        'Email delivery failed; it will be retried',
      );
    }
  }

  function awaitReply(delivery: ClaimedDelivery) {
    const late = setTimeout(() => {
      if (!awaitingReply.has(delivery) || overdue.size >= concurrency) return;
      overdue.add(delivery);
      pump();
      if (moreDue) run();
    }, options.mailTimeoutMs);
    late.unref();
    awaitingReply.set(delivery, late);
  }

  /** Starts sends from the claimed rows while the pool has room. */
  function pump() {
    while (counted() < concurrency && waiting.length > 0) {
      const delivery = waiting.shift()!;
      const sent = deliver(delivery)
        .catch((error: unknown) =>
          log.warn(
            { err: error, delivery: delivery.id },
            'Could not record an email delivery; its claim expires and it is tried again',
          ),
        )
        .finally(() => {
          sending.delete(sent);
          pump();
          // Claim the next rows while the rest are still sending.
          if (moreDue && waiting.length + counted() <= concurrency) run();
        });
      sending.set(sent, delivery);
    }
  }

  async function renew() {
    await renewClaims(db, [...waiting, ...sending.values()], leaseMs).catch((error: unknown) =>
      log.warn({ err: error }, 'Could not renew the claims of emails being sent'),
    );
  }

  async function claim() {
    const room = maxHeld - waiting.length - counted();
    if (stopped || room <= 0) return;
    const claimed = await claimDue(db, room, leaseMs);
    moreDue = claimed.length === room;
    waiting.push(...claimed);
    pump();
  }

  function schedule(ms: number) {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(run, ms);
    timer.unref();
  }

  function run() {
    if (stopped) return;
    if (claiming) {
      again = true;
      return;
    }
    again = false;
    claiming = claim()
      .catch((error: unknown) => {
        moreDue = false;
        log.warn({ err: error }, 'Mail delivery worker could not reach the database');
      })
      .finally(() => {
        claiming = undefined;
        if (again) run();
        // While more is due, finished sends claim the next rows; otherwise poll.
        else if (!moreDue) schedule(pollMs);
      });
  }

  return {
    start() {
      if (!stopped) return;
      stopped = false;
      renewing = setInterval(() => void renew(), leaseMs / 3);
      renewing.unref();
      schedule(0);
    },
    wake() {
      run();
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await claiming;
      const unsent = waiting.splice(0);
      let bound: NodeJS.Timeout | undefined;
      const deadline = new Promise<void>(
        (resolve) => (bound = setTimeout(resolve, options.mailTimeoutMs)),
      );
      // By the deadline every send has been recorded, is being given up at its timeout, or has
      // handed over its message and waits for the reply. That one keeps its claim rather than
      // handing it back: the server may be delivering the message, and a retry now would send
      // it twice. Its claim runs out a lease after the last renewal; the row is retried then.
      const recorded = [...sending].map(([sent, delivery]) =>
        Promise.race([sent, deadline.then(() => (awaitingReply.has(delivery) ? undefined : sent))]),
      );
      await Promise.all([
        ...recorded,
        releaseClaims(db, unsent).catch((error: unknown) =>
          log.warn({ err: error }, 'Could not release claimed emails; their claims expire'),
        ),
      ]);
      clearTimeout(bound);
      clearInterval(renewing);
    },
  };
}
