import type { FastifyBaseLogger } from 'fastify';
import type pg from 'pg';
import { PUBLISHED_CHANNEL } from './store-versions';

export type PublishedWatch = { stop(): Promise<void> };

/**
 * Calls `check` whenever another instance (or this one) may have published: on each
 * notification of PUBLISHED_CHANNEL, received on a connection of its own, and every `pollMs`
 * besides, because a notification sent while that connection is down is lost. A dropped
 * connection is opened again after `retryMs`, and checked at once then.
 */
export function watchPublished(options: {
  newClient: () => pg.Client;
  check: () => Promise<void>;
  log: FastifyBaseLogger;
  pollMs: number;
  retryMs: number;
}): PublishedWatch {
  const { newClient, log, pollMs, retryMs } = options;
  let stopped = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;

  const check = () =>
    options.check().catch((error: unknown) => {
      log.warn({ err: error }, 'Could not read the published store content');
    });

  function reconnectLater() {
    if (stopped || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      void listen();
    }, retryMs);
  }

  async function listen() {
    if (stopped) return;
    let current: pg.Client;
    try {
      current = newClient();
    } catch (error) {
      log.warn({ err: error }, 'The store content listener could not connect');
      reconnectLater();
      return;
    }
    client = current;
    let lost = false;
    const drop = () => {
      if (lost) return;
      lost = true;
      if (client === current) client = undefined;
      current.end().catch(() => {});
      reconnectLater();
    };
    current.on('error', (error) => {
      if (!stopped) log.warn({ err: error }, 'The store content listener lost its connection');
      drop();
    });
    current.on('end', drop);
    current.on('notification', (message) => {
      if (message.channel === PUBLISHED_CHANNEL) void check();
    });
    try {
      await current.connect();
      await current.query(`listen ${PUBLISHED_CHANNEL}`);
    } catch (error) {
      if (!stopped) log.warn({ err: error }, 'The store content listener could not connect');
      drop();
      return;
    }
    if (stopped) {
      await current.end().catch(() => {});
      return;
    }
    // What was published while no connection listened.
    void check();
  }

  const poll = setInterval(() => void check(), pollMs);
  poll.unref();
  void listen();

  return {
    async stop() {
      stopped = true;
      clearInterval(poll);
      clearTimeout(retry);
      const open = client;
      client = undefined;
      await open?.end().catch(() => {});
    },
  };
}
