import { sql } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import { expect, it } from 'vitest';
import { eventually } from '../../../tests/support/eventually';
import { describeEachDatabase } from '../../../tests/support/test-database';
import { watchPublished } from './published-watch';
import { PUBLISHED_CHANNEL } from './store-versions';

const silent = { warn: () => {}, info: () => {} } as unknown as FastifyBaseLogger;

/** The poll set far beyond each test, so only a notification can call check. */
const NO_POLL_MS = 10 * 60_000;

describeEachDatabase('watchPublished', (use) => {
  function watch() {
    const checks: number[] = [];
    const watcher = watchPublished({
      newClient: () => use().newClient(),
      check: async () => {
        checks.push(Date.now());
      },
      log: silent,
      pollMs: NO_POLL_MS,
      retryMs: 100,
    });
    return { checks, watcher };
  }

  const notify = () => sql`select pg_notify(${PUBLISHED_CHANNEL}, '2')`.execute(use().db);
  const listeners = async () =>
    (
      await sql<{ pid: number }>`select pid from pg_stat_activity
        where datname = current_database() and query = ${`listen ${PUBLISHED_CHANNEL}`}`.execute(
        use().db,
      )
    ).rows;

  it('checks once it listens, and on every notification', async () => {
    const { checks, watcher } = watch();
    try {
      await eventually(async () => (checks.length === 1 ? true : undefined));
      const sent = Date.now();
      await notify();
      await eventually(async () => (checks.length === 2 ? true : undefined), 2_000);
      expect(checks[1]! - sent).toBeLessThan(1_000);
      // A notification of another channel is not ours.
      await sql`select pg_notify('something_else', '')`.execute(use().db);
      await notify();
      await eventually(async () => (checks.length === 3 ? true : undefined), 2_000);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(checks).toHaveLength(3);
    } finally {
      await watcher.stop();
    }
    expect(await listeners()).toEqual([]);
  });

  it('listens again after its connection is cut, checking for what it missed', async () => {
    const { checks, watcher } = watch();
    try {
      await eventually(async () => ((await listeners()).length === 1 ? true : undefined));
      await eventually(async () => (checks.length === 1 ? true : undefined));
      await sql`select pg_terminate_backend(pid) from pg_stat_activity
        where datname = current_database() and query = ${`listen ${PUBLISHED_CHANNEL}`}`.execute(
        use().db,
      );
      // Reconnected: it checks at once (a publish may have come meanwhile), then hears the next.
      await eventually(async () => (checks.length === 2 ? true : undefined), 3_000);
      await eventually(async () => ((await listeners()).length === 1 ? true : undefined));
      await notify();
      await eventually(async () => (checks.length === 3 ? true : undefined), 2_000);
    } finally {
      await watcher.stop();
    }
  });

  it('polls without notifications', async () => {
    let checks = 0;
    const watcher = watchPublished({
      // A database that cannot be reached: only the poll calls check.
      newClient: () => {
        throw new Error('unreachable');
      },
      check: async () => {
        checks += 1;
      },
      log: silent,
      pollMs: 50,
      retryMs: 60_000,
    });
    try {
      await eventually(async () => (checks >= 3 ? true : undefined), 2_000);
    } finally {
      await watcher.stop();
    }
  });

  it('logs each kind of failure once while the database is away, and its end once', async () => {
    const lines: string[] = [];
    const log = {
      warn: (_details: unknown, message: string) => lines.push(`warn: ${message}`),
      info: (message: string) => lines.push(`info: ${message}`),
    } as unknown as FastifyBaseLogger;
    let away = true;
    const watcher = watchPublished({
      newClient: () => {
        throw new Error('unreachable');
      },
      check: async () => {
        if (away) throw new Error('unreachable');
      },
      log,
      pollMs: 10,
      retryMs: 10,
    });
    try {
      await new Promise((resolve) => setTimeout(resolve, 300));
      away = false;
      await eventually(async () => (lines.length === 3 ? true : undefined), 2_000);
      await new Promise((resolve) => setTimeout(resolve, 100));
    } finally {
      await watcher.stop();
    }
    expect(lines.sort()).toEqual([
      'info: The published store content is read again',
      'warn: Could not read the published store content',
      'warn: The store content listener could not connect',
    ]);
  });
});
