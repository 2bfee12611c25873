import type { FastifyBaseLogger } from 'fastify';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../db/schema';

export type PeriodicTask = {
  name: string;
  /** Runs inside the transaction that holds the task's advisory lock. */
  run(trx: Transaction<Database>): Promise<void>;
};

/** Advisory lock keys: any constants shared by all instances (see migrate.ts for another). */
const LOCK_BASE = 4_271_902_000;

/**
 * Runs a task if no other instance is running it: the lock is taken with
 * pg_try_advisory_xact_lock inside the task's own transaction, so it is held on that one
 * connection and released at commit, rollback, or when a killed process's connection drops.
 * Returns false when another instance held it.
 */
export async function runExclusively(
  db: Kysely<Database>,
  lockKey: number,
  task: (trx: Transaction<Database>) => Promise<void>,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const locked = await sql<{ locked: boolean }>`
      select pg_try_advisory_xact_lock(${LOCK_BASE + lockKey}::bigint) as locked`.execute(trx);
    if (!locked.rows[0]?.locked) return false;
    await task(trx);
    return true;
  });
}

/** Runs each task every `everyMs` in this instance; one instance at a time does each run. */
export function startPeriodicWork(
  db: Kysely<Database>,
  tasks: PeriodicTask[],
  everyMs: number,
  log: FastifyBaseLogger,
): { stop(): Promise<void> } {
  let running: Promise<void> | undefined;
  const tick = () => {
    if (running) return;
    running = (async () => {
      for (const [index, task] of tasks.entries()) {
        try {
          await runExclusively(db, index, task.run);
        } catch (error) {
          log.warn({ err: error, task: task.name }, 'Periodic task failed; it runs again later');
        }
      }
    })().finally(() => {
      running = undefined;
    });
  };
  const timer = setInterval(tick, everyMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
