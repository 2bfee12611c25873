import fp from 'fastify-plugin';
import type { Config } from '../config/load-config';
import { seedContent } from '../../shared/store/seed-content';
import type { StoreContent } from '../../shared/store/store-content';
import { isDatabaseUnavailable } from '../http/errors';
import { completeContent } from './complete-content';
import { watchPublished, type PublishedWatch } from './published-watch';
import { publishDue } from './store-schedule';
import {
  newerVersion,
  priceVersions,
  seedFirstVersion,
  type PublishedStore,
} from './store-versions';
import { priceSpans, shownProduct, type PriceSpan } from '../../shared/store/price-history';

export type { PublishedStore } from './store-versions';

/** What the rest of the app reads of the store content. */
export type StoreService = {
  /** The live version as this instance last read it (at most a few seconds old). */
  published(): PublishedStore;
  /** Called after this instance starts serving a newer published version. */
  onPublish(listener: (published: PublishedStore) => void): void;
  /** The price live at every moment since the first version, as of the last read. */
  priceSpans(): PriceSpan[];
  /**
   * The live product as the page shows it at `now` under PRICE_RULES (the former price it may
   * strike through); a draft's product as if published now when given.
   */
  shownProduct(now?: Date, product?: StoreContent['product']): StoreContent['product'];
  /** Reads the live version now (after a publish of this instance's own, say). */
  refresh(): Promise<PublishedStore>;
};

declare module 'fastify' {
  interface FastifyInstance {
    store: StoreService;
  }
}

/** How often each instance reads the live version when no notification came (a lost one). */
const POLL_MS = 2_000;
/** How soon a dropped listening connection is opened again. */
const RETRY_MS = 1_000;

/** The first version, from the server's settings (PRODUCT_PRICE_CENTS, PRODUCT_CURRENCY, CHECKOUT_URL). */
export function seedFromConfig(config: Pick<Config, 'product' | 'checkoutUrl'>): StoreContent {
  return seedContent({
    priceCents: config.product.priceCents,
    currency: config.product.currency,
    checkoutUrl: config.checkoutUrl,
  });
}

/**
 * The store content service. At start (the database is migrated by then) it seeds the first
 * version once and reads the live one; from then on every instance follows publishes within
 * STORE_REFRESH_MS: notified through PostgreSQL's LISTEN/NOTIFY, and polling every POLL_MS
 * in case a notification was lost.
 */
export const storePlugin = fp(
  async (app) => {
    const { db } = app.database;
    const seed = seedFromConfig(app.config);
    // Until the database is read: the settings' offer, as no version (0). An instance that
    // starts while PostgreSQL is away serves it, and the stored one once it is back.
    let published: PublishedStore = {
      version: 0,
      publishedAt: new Date(),
      content: seed,
    };
    let spans: PriceSpan[] = [];
    let seeded = false;
    const listeners: ((published: PublishedStore) => void)[] = [];

    async function read(): Promise<PublishedStore> {
      if (!seeded) {
        await seedFirstVersion(db, seed);
        seeded = true;
      }
      const newer = await newerVersion(db, published.version);
      if (!newer || newer.version <= published.version) return published;
      const before = published.version;
      spans = priceSpans(await priceVersions(db));
      published = { ...newer, content: completeContent(newer.content, seed) };
      if (before > 0) app.log.info({ version: published.version }, 'Serving a new store version');
      // Listeners hear the first read too when it comes late (the database was away at start).
      for (const listener of listeners) {
        try {
          listener(published);
        } catch (error) {
          app.log.error({ err: error }, 'A store content listener failed');
        }
      }
      return published;
    }

    let reading: Promise<PublishedStore> | undefined;
    function refresh(): Promise<PublishedStore> {
      // One read at a time; a call during one waits for it and then reads again, so a publish
      // committed just before the call is seen.
      const previous = reading;
      const next = (previous ?? Promise.resolve()).catch(() => {}).then(read);
      reading = next;
      next
        .finally(() => {
          if (reading === next) reading = undefined;
        })
        .catch(() => {});
      return next;
    }

    try {
      await refresh();
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
      app.log.warn({ err: error }, 'The store content is read once the database is back');
    }

    app.decorate('store', {
      published: () => published,
      onPublish: (listener) => {
        listeners.push(listener);
      },
      refresh,
      priceSpans: () => spans,
      shownProduct: (now = new Date(), product = published.content.product) =>
        shownProduct(app.config.priceRules, spans, product, now),
    } satisfies StoreService);

    /**
     * A scheduled publish whose time has come, by whichever instance claims it first; on each
     * check of the watch (every POLL_MS at the latest), so it is live everywhere well within
     * STORE_REFRESH_MS of its time. Its failure is logged and the live version read anyway.
     */
    async function publishScheduled() {
      try {
        const outcome = await publishDue(db, seed);
        if (outcome && 'published' in outcome) {
          app.log.info(outcome, 'Published a scheduled store version');
        } else if (outcome) {
          app.log.error(outcome, 'A scheduled store version was not published');
        }
      } catch (error) {
        if (!isDatabaseUnavailable(error)) {
          app.log.error({ err: error }, 'Could not publish a scheduled store version');
        } else throw error;
      }
    }

    let watch: PublishedWatch | undefined;
    app.addHook('onReady', async () => {
      watch = watchPublished({
        newClient: () => app.database.newClient(),
        check: async () => {
          await publishScheduled();
          await refresh();
        },
        log: app.log,
        pollMs: POLL_MS,
        retryMs: RETRY_MS,
      });
    });
    app.addHook('preClose', async () => {
      await watch?.stop();
      await reading?.catch(() => {});
    });
  },
  { name: 'store' },
);
