import type { FastifyBaseLogger } from 'fastify';
import type pg from 'pg';
import { PUBLISHED_CHANNEL } from './store-versions';

export type PublishedWatch = { stop(): Promise<void> };

/**
 * Calls `check` whenever another instance (or this one) may have published: on each
 * notification of PUBLISHED_CHANNEL, received on a connection of its own, and every `pollMs`
 * besides, because a notification sent while that connection is down is lost. A dropped
 * connection is opened again after `retryMs`, and checked at once then. While the database is
 * away, each kind of failure is logged once, and its end once.
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
  const failing = { reading: false, listening: false };

  function failed(what: keyof typeof failing, error: unknown, message: string) {
    if (stopped || failing[what]) return;
    failing[what] = true;
    log.warn({ err: error }, message);
  }

  function recovered(what: keyof typeof failing, message: string) {
    if (!failing[what]) return;
    failing[what] = false;
    log.info(message);
  }

  const check = () =>
    options.check().then(
      () => recovered('reading', 'The published store content is read again'),
      (error: unknown) => failed('reading', error, 'Could not read the published store content'),
    );

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
      failed('listening', error, 'The store content listener could not connect');
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
      failed('listening', error, 'The store content listener lost its connection');
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
      failed('listening', error, 'The store content listener could not connect');
      drop();
      return;
    }
    if (stopped) {
      await ended(current);
      return;
    }
    recovered('listening', 'The store content listener is listening again');
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
      if (open) await ended(open);
    },
  };
}

/** Ends a connection; one whose socket is already gone may never say so, so not for long. */
async function ended(client: pg.Client): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    client.end().catch(() => {}),
    new Promise((resolve) => (timer = setTimeout(resolve, 1_000))),
  ]);
  clearTimeout(timer);
}
