/**
 * The runtime settings the browser needs (CHECKOUT_URL, DOWNLOAD_URL). The home page is
 * prerendered at build time with placeholder links; the server swaps in the configured URLs
 * once at start and embeds the same values as JSON for screens rendered in the browser.
 */
export type PublicConfig = {
  checkoutUrl: string;
  downloadUrl: string;
  /**
   * STRIPE_WEBHOOK_SECRET is set: the thank-you page confirms the payment and the product is
   * delivered through emailed download links (DESIGN.md "Selling for real"), not downloadUrl.
   */
  verifiedPurchases: boolean;
};

/** The settings the prerendered HTML carries as placeholders (the URLs in its links). */
export type PublicLinks = Pick<PublicConfig, 'checkoutUrl' | 'downloadUrl'>;

export const publicConfigDefaults: PublicConfig = {
  checkoutUrl: 'https://buy.stripe.com/test_soul_reset_bundle',
  downloadUrl: '/downloads/soul-reset-bundle-sample.pdf',
  verifiedPurchases: false,
};

/** What the prerendered HTML carries in place of each URL until the server fills it in. */
export const publicConfigPlaceholders: PublicLinks = {
  checkoutUrl: '__CHECKOUT_URL__',
  downloadUrl: '__DOWNLOAD_URL__',
};

/** The id of the `<script type="application/json">` element holding the PublicConfig. */
export const PUBLIC_CONFIG_ELEMENT_ID = 'public-config';

export const guideUrlDefault = '/downloads/free-mindfulness-guide.pdf';
