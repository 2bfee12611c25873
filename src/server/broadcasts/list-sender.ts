import type { FastifyBaseLogger } from 'fastify';
import { sql, type Kysely } from 'kysely';
import type { Config } from '../config/load-config';
import type { Database } from '../db/schema';
import { newToken, tokenHash } from '../http/tokens';
import { LIST_SOURCE_TABLE, markListBounced } from '../list/list-service';
import { createBatchRecorder } from '../mail/batch-recorder';
import { leaseFor, pollFor } from '../mail/delivery-worker';
import type { Mailer } from '../mail/mailer';
import {
  broadcastEmail,
  senderComplete,
  type BroadcastMessage,
  type Sender,
} from './broadcast-email';
import {
  finishSent,
  readMessages,
  readSender,
  snapshotAudience,
  startScheduled,
} from './broadcast-lifecycle';
import { ensureRateWindows } from './list-rate';
import {
  claimRecipients,
  markRecipientFailed,
  markRecipientsSent,
  releaseRecipients,
  renewRecipientClaims,
  stillDeliverable,
  type ClaimedRecipient,
} from './recipient-store';

/** The settings the list sender reads; plain values, so it runs wherever a database is. */
export type ListSenderConfig = Pick<
  Config,
  | 'publicUrl'
  | 'mailFrom'
  | 'mailRetryDelaysMs'
  | 'mailTimeoutMs'
  | 'mailRatePerSecond'
  | 'mailRatePerHour'
>;

export type ListSenderOptions = {
  db: Kysely<Database>;
  mailer: Mailer;
  log: FastifyBaseLogger;
  config: ListSenderConfig;
  /** How often to look for due messages and scheduled broadcasts when nothing wakes it. */
  pollMs?: number;
  /**
   * Sends in flight at most (default: one less than the transport's connections, at least
   * one): the connection left over is for order mail, codes and form notifications, which
   * therefore never wait behind a broadcast.
   */
  concurrency?: number;
  /**
   * Whether the instance is answering requests now (mail/visitor-load.ts). While it is, a send
   * waits up to YIELD_MS to start, so a visitor's page does not share the cores with a burst
   * of list mail; under steady traffic the list still gets a send every YIELD_MS at least.
   */
  visitorsWaiting?: () => boolean;
};

/** The same shape as the delivery worker (src/server/mail/delivery-worker.ts). */
export type ListSender = {
  start(): void;
  /** Looks for due messages now (a broadcast was started or resumed) instead of at the next poll. */
  wake(): void;
  /**
   * Stops claiming, hands back the claims not yet tried and waits, at most MAIL_TIMEOUT_MS,
   * for the sends in flight to be recorded. A send waiting for the server's reply keeps its
   * claim: retrying it now could send the message twice.
   */
  stop(): Promise<void>;
};

/** A claimed message; `checkedAt`: when its subscriber was last seen confirmed. */
type Held = ClaimedRecipient & { token: string; message: BroadcastMessage; checkedAt: number };

/**
 * How long an accepted message waits for others to be marked sent with it: one statement for
 * a burst instead of one for every two or three messages. Until then it stays claimed, so a
 * kill sends it again as it would a send in flight; a stop waits for the mark.
 */
const RECORD_GATHER_MS = 20;

/**
 * A claimed message that has waited longer than this for a send slot is checked again before
 * it starts (one statement for all that wait): an unsubscribe that commits meanwhile stops it.
 */
const RECHECK_MS = 100;

/** The longest a send waits for the requests being answered to end (see visitorsWaiting). */
const YIELD_MS = 10;

/** How long the sender's footer read from the live store version is reused. */
const SENDER_CACHE_MS = 2_000;

/**
 * The list sender every instance runs: starts scheduled broadcasts, snapshots their audience
 * in batches, and sends the due messages of sending broadcasts and sequence steps, as many a
 * second as MAIL_RATE_PER_SECOND and MAIL_RATE_PER_HOUR allow across all instances (permits
 * from mail_rate_windows before each claim). Each message is marked sent only after the mail
 * server accepted it; temporary failures are retried after MAIL_RETRY_DELAYS; a 5xx refusal
 * marks the message and the subscriber bounced.
 */
export function createListSender(options: ListSenderOptions): ListSender {
  const { db, mailer, log, config } = options;
  const visitorsWaiting = options.visitorsWaiting ?? (() => false);
  const pollMs = options.pollMs ?? pollFor(config.mailRetryDelaysMs);
  const concurrency = Math.max(1, options.concurrency ?? mailer.parallel - 1);
  // Rows held at once, sending or next: a claim's statements serve a batch, not one message,
  // and the next batch is claimed when half are left. Their permits count in the window they
  // were claimed in, at most one batch early.
  const maxHeld = concurrency * 4;
  const leaseMs = leaseFor(config.mailTimeoutMs);
  const rate = { perSecond: config.mailRatePerSecond, perHour: config.mailRatePerHour };
  const recordSent = createBatchRecorder((batch: Held[]) => markRecipientsSent(db, batch), {
    gatherMs: RECORD_GATHER_MS,
  });
  /** Accepted messages being marked sent: their send slots are free meanwhile. */
  const recording = new Set<Promise<void>>();
  const waiting: Held[] = [];
  const sending = new Map<Promise<void>, Held>();
  const awaitingReply = new Set<Held>();
  /** What the broadcasts and steps being sent say, read again each poll (a step may be edited). */
  const messages = new Map<number, BroadcastMessage>();
  let sender: { value: Sender | undefined; at: number } | undefined;
  let timer: NodeJS.Timeout | undefined;
  let renewing: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let rechecking: Promise<void> | undefined;
  /** Since when the next send has been waiting for requests to end, and its retry. */
  let yieldingSince: number | undefined;
  let yieldTimer: NodeJS.Timeout | undefined;
  let again = false;
  let stopped = true;
  let lastUpkeep = 0;
  let windowsReady = false;

  async function currentSender() {
    if (!sender || Date.now() - sender.at > SENDER_CACHE_MS) {
      sender = { value: await readSender(db), at: Date.now() };
    }
    return sender.value;
  }

  async function deliver(held: Held, from: Sender) {
    const email = broadcastEmail(config, held.message, from, held, held.token);
    const result = await mailer.send(email, () => awaitingReply.add(held));
    awaitingReply.delete(held);
    if (result.status === 'sent') {
      // The slot goes to the next message at once; the sent mark follows with the others of
      // its burst (a stop waits for it, a kill before it sends this one again).
      const recorded = recordSent(held)
        .catch((error: unknown) =>
          log.warn(
            { err: error, recipient: held.id },
            'Could not record a list email; its claim expires and it is tried again',
          ),
        )
        .finally(() => recording.delete(recorded));
      recording.add(recorded);
      return;
    }
    if (result.permanent) {
      // The subscriber first: once the message reads bounced, so does the address.
      await markListBounced(db, { source_table: LIST_SOURCE_TABLE, source_id: held.subscriber_id });
      await markRecipientFailed(db, held, result.error, 'bounced');
      log.warn(
        { broadcast: held.broadcast_id, recipient: held.id, error: result.error },
        'List email refused for good; the address is marked bounced',
      );
      return;
    }
    const state = await markRecipientFailed(db, held, result.error, config.mailRetryDelaysMs);
    log[state === 'failed' ? 'error' : 'warn'](
      { broadcast: held.broadcast_id, recipient: held.id, attempts: held.attempts },
      state === 'failed'
        ? 'List email failed after its last retry'
        : 'List email failed; it will be retried',
    );
  }

  function pump(from: Sender) {
    // Once stopping, nothing new starts: what is claimed and not sent is handed back.
    while (!stopped && sending.size < concurrency && waiting.length > 0) {
      if (Date.now() - waiting[0]!.checkedAt > RECHECK_MS) {
        recheck(from);
        return;
      }
      if (visitorsWaiting() && Date.now() - (yieldingSince ??= Date.now()) < YIELD_MS) {
        yieldTimer ??= setTimeout(() => {
          yieldTimer = undefined;
          pump(from);
        }, 1);
        return;
      }
      yieldingSince = undefined;
      const held = waiting.shift()!;
      const sent = deliver(held, from)
        .catch((error: unknown) =>
          log.warn(
            { err: error, recipient: held.id },
            'Could not record a list email; its claim expires and it is tried again',
          ),
        )
        .finally(() => {
          sending.delete(sent);
          pump(from);
          // Claim the next batch while the rest are still sending.
          if (waiting.length + sending.size <= maxHeld / 2) run();
        });
      sending.set(sent, held);
    }
  }

  /** Checks the waiting messages again, drops those no longer to send, and goes on. */
  function recheck(from: Sender) {
    if (rechecking) return;
    const rows = [...waiting];
    rechecking = stillDeliverable(db, rows)
      .then((kept) => {
        const now = Date.now();
        for (const row of rows) {
          if (kept.has(row.id)) row.checkedAt = now;
          else if (waiting.includes(row)) waiting.splice(waiting.indexOf(row), 1);
        }
      })
      .catch((error: unknown) => {
        // Claimed as deliverable, and the database is out of reach: sent as claimed.
        log.warn({ err: error }, 'Could not check waiting list emails again');
        for (const row of rows) row.checkedAt = Date.now();
      })
      .finally(() => {
        rechecking = undefined;
        pump(from);
      });
  }

  /** Starts what is scheduled, snapshots audiences and finishes broadcasts, once a poll. */
  async function upkeep() {
    if (Date.now() - lastUpkeep < pollMs) return;
    lastUpkeep = Date.now();
    messages.clear();
    await startScheduled(db);
    // A batch at a time, so the sends of running broadcasts go on meanwhile.
    if (await snapshotAudience(db)) lastUpkeep = 0;
    await finishSent(db);
  }

  /**
   * Claims as many due messages as there are free slots and permits, each with a new
   * unsubscribe token (only its hash is stored); returns the next wait.
   */
  async function claim(): Promise<number | undefined> {
    await upkeep();
    const room = maxHeld - sending.size - waiting.length;
    if (stopped || room <= 0) return undefined;
    const from = await currentSender();
    if (!senderComplete(from)) return pollMs;
    if (!windowsReady) {
      await ensureRateWindows(db);
      windowsReady = true;
    }
    const tokens = Array.from({ length: room }, newToken);
    const { claimed, permits } = await claimRecipients(db, {
      wanted: room,
      rate,
      leaseMs,
      tokenHashes: tokens.map(tokenHash),
    });
    if (permits.granted === 0) return permits.waitMs;
    const unknown = [...new Set(claimed.map((row) => row.broadcast_id))].filter(
      (id) => !messages.has(id),
    );
    for (const [id, message] of await readMessages(db, unknown)) messages.set(id, message);
    waiting.push(
      ...claimed.map(({ n, ...row }) => ({
        ...row,
        token: tokens[n - 1]!,
        message: messages.get(row.broadcast_id)!,
        checkedAt: Date.now(),
      })),
    );
    pump(from);
    if (claimed.length < permits.granted) return pollMs;
    // All granted were due: more may be, once slots or the next window's permits are free.
    return permits.granted < room ? 1 : undefined;
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
    running = claim()
      .then((wait) => {
        if (wait !== undefined) schedule(wait);
      })
      .catch((error: unknown) => {
        log.warn({ err: error }, 'List sender could not reach the database');
        schedule(pollMs);
      })
      .finally(() => {
        running = undefined;
        if (again) run();
      });
  }

  async function renew() {
    await renewRecipientClaims(db, [...waiting, ...sending.values()], leaseMs).catch(
      (error: unknown) => log.warn({ err: error }, 'Could not renew the claims of list emails'),
    );
  }

  return {
    start() {
      if (!stopped) return;
      stopped = false;
      lastUpkeep = 0;
      renewing = setInterval(() => void renew(), leaseMs / 3);
      renewing.unref();
      schedule(0);
    },
    wake() {
      lastUpkeep = 0;
      run();
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      clearTimeout(yieldTimer);
      yieldTimer = undefined;
      await running;
      await rechecking;
      const unsent = waiting.splice(0);
      let bound: NodeJS.Timeout | undefined;
      const deadline = new Promise<void>(
        (resolve) => (bound = setTimeout(resolve, config.mailTimeoutMs)),
      );
      const recorded = [...sending].map(([sent, held]) =>
        Promise.race([sent, deadline.then(() => (awaitingReply.has(held) ? undefined : sent))]),
      );
      await Promise.all([
        ...recorded,
        releaseRecipients(db, unsent).catch((error: unknown) =>
          log.warn({ err: error }, 'Could not release claimed list emails; their claims expire'),
        ),
      ]);
      await Promise.all(recording);
      clearTimeout(bound);
      clearInterval(renewing);
    },
  };
}

/** Recipients of a broadcast still to be sent, for tests and the admin. */
export async function pendingCount(db: Kysely<Database>, broadcastId: number): Promise<number> {
  const row = await sql<{ count: number }>`
    select count(*)::int as count from broadcast_recipients
    where broadcast_id = ${broadcastId} and status = 'pending'`.execute(db);
  return row.rows[0]!.count;
}
