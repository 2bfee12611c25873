import type { MediaImage } from './store/files-api';
import { offerOf, type Offer } from './store/offer';
import type { PriceRules } from './store/price-history';
import type { StoreContent } from './store/store-content';

/**
 * What the browser needs from the server: its settings and the published store content. The
 * server renders the public routes with it (index-page.ts) and embeds the same value as JSON,
 * which the browser hydrates from and renders its own screens with.
 */
export type PublicConfig = {
  /** DOWNLOAD_URL: the thank-you page's download without verified purchases. */
  downloadUrl: string;
  /**
   * STRIPE_WEBHOOK_SECRET is set: the thank-you page confirms the payment and the product is
   * delivered through emailed download links (DESIGN.md "Selling for real"), not downloadUrl.
   */
  verifiedPurchases: boolean;
  /**
   * STRIPE_SECRET_KEY is set too: the buy buttons ask the server for a Checkout Session of the
   * published product (shared/orders/checkout-api.ts) instead of opening the Payment Link.
   */
  checkoutSessions: boolean;
  /** The live version of the store content: every text and price of the offer. */
  store: StoreContent;
  /** The uploaded images the content shows, by file id: their sizes and variants. */
  media: Record<string, MediaImage>;
  /** The prices of `store`'s product as the page writes them, so the browser formats none. */
  offer: Offer;
  /**
   * PRICE_RULES (absent: `off`). Under `eu` and `us` a reduction is called a limited-time offer
   * only when it has an end (16 CFR 233.5: a limited offer must really be limited).
   */
  priceRules?: PriceRules;
  /** The discount code of the page's address (/?code=SPRING), applied or refused. */
  code?: PageCode;
};

/** A discount code as the page shows it (DESIGN.md "Prices and promotions"). */
export type PageCode = {
  /** The code in upper case; null for a text that is no code. */
  code: string | null;
  /** The offer's prices include it; else `message` says why it was refused. */
  applied: boolean;
  message: string;
  /** An applied code's end (ISO time). */
  endsAt?: string;
};

export type PublicSettings = Pick<
  PublicConfig,
  'downloadUrl' | 'verifiedPurchases' | 'checkoutSessions' | 'priceRules'
>;

/** The PublicConfig of `store`, its offer computed from it. */
export function publicConfigOf(
  settings: PublicSettings,
  store: StoreContent,
  media: PublicConfig['media'] = {},
  code?: PageCode,
): PublicConfig {
  return { ...settings, store, media, offer: offerOf(store.product), ...(code ? { code } : {}) };
}

/** The id of the `<script type="application/json">` element holding the PublicConfig. */
export const PUBLIC_CONFIG_ELEMENT_ID = 'public-config';

export const guideUrlDefault = '/downloads/free-mindfulness-guide.pdf';
