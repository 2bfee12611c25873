import fp from 'fastify-plugin';
import type { Config } from '../config/load-config';
import { seedContent } from '../../shared/store/seed-content';
import type { StoreContent } from '../../shared/store/store-content';

/** The live version of the store content. */
export type PublishedStore = { version: number; publishedAt: Date; content: StoreContent };

/** What the rest of the app reads of the store content. */
export type StoreService = {
  /** The live version as this instance last read it (at most a few seconds old). */
  published(): PublishedStore;
  /** Called after this instance starts serving a newer published version. */
  onPublish(listener: (published: PublishedStore) => void): void;
};

declare module 'fastify' {
  interface FastifyInstance {
    store: StoreService;
  }
}

/** The first version, from the server's settings (PRODUCT_PRICE_CENTS, PRODUCT_CURRENCY, CHECKOUT_URL). */
export function seedFromConfig(config: Pick<Config, 'product' | 'checkoutUrl'>): StoreContent {
  return seedContent({
    priceCents: config.product.priceCents,
    currency: config.product.currency,
    checkoutUrl: config.checkoutUrl,
  });
}

/** The store content service: the seed as version 1 until versions are stored. */
export const storePlugin = fp(
  async (app) => {
    const published: PublishedStore = {
      version: 1,
      publishedAt: new Date(),
      content: seedFromConfig(app.config),
    };
    app.decorate('store', {
      published: () => published,
      onPublish: () => {},
    } satisfies StoreService);
  },
  { name: 'store' },
);
