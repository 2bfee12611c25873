import { publicConfigOf, type PublicConfig } from './public-config';
import { seedContent } from './store/seed-content';

/**
 * The settings and content the site was built with: the server's defaults, and what the
 * browser uses when the page embeds none (Vite's development server). Apart from
 * public-config.ts so that the page's code does not carry the seed's texts.
 */
export const publicConfigDefaults: PublicConfig = publicConfigOf(
  {
    downloadUrl: '/downloads/soul-reset-bundle-sample.pdf',
    verifiedPurchases: false,
    checkoutSessions: false,
  },
  seedContent(),
);
