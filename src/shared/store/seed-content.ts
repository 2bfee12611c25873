import type { StoreContent } from './store-content';

/** What the first version takes from the server's settings (PRODUCT_PRICE_CENTS and others). */
export type SeedSettings = {
  priceCents: number;
  currency: string;
  checkoutUrl: string;
};

export const seedSettingsDefaults: SeedSettings = {
  priceCents: 2700,
  currency: 'usd',
  checkoutUrl: 'https://buy.stripe.com/test_soul_reset_bundle',
};

/** The former price the site was built with ($89), struck through beside the price. */
const SEED_FORMER_PRICE_CENTS = 8900;

/** The offer as the site was built: the first published version. */
export function seedContent(settings: SeedSettings = seedSettingsDefaults): StoreContent {
  return {
    product: {
      name: 'Soul Reset Bundle',
      priceCents: settings.priceCents,
      compareAtCents:
        settings.priceCents < SEED_FORMER_PRICE_CENTS ? SEED_FORMER_PRICE_CENTS : null,
      currency: settings.currency,
      checkoutUrl: settings.checkoutUrl,
      file: null,
    },
    guide: { file: null },
    hero: {
      title: 'Soul Reset Bundle: find your calm again in 30 days',
      text: 'A gentle 30-day mindfulness and stress-relief program for women who carry too much. Five simple daily habits, five beautiful printables, and a calmer mind you can feel within a week.',
    },
    thankYou: {
      title: 'Thank You for Your Purchase!',
      text: 'Your 30-day reset starts whenever you are.',
    },
    receipt: {
      subject: 'Your Soul Reset Bundle: receipt and download link',
      intro: 'Thank you for your purchase! Your Soul Reset Bundle is ready to download.',
    },
  };
}
