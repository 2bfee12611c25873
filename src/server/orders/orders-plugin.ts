import fp from 'fastify-plugin';
import { adminOrderRoutes } from './admin-order-routes';
import { checkBundleFile } from './bundle-file';
import { orderRoutes } from './order-routes';
import { stripeClient } from './stripe-api';

/**
 * Orders (DESIGN.md "Selling for real"). The admin's Orders panel is always there; the webhook,
 * download links and the thank-you page's confirmation only with STRIPE_WEBHOOK_SECRET.
 */
export const ordersPlugin = fp<{ bundleFile: string }>(
  async (app, { bundleFile }) => {
    app.registerAdminRoutes(adminOrderRoutes);
    const { stripe } = app.config;
    if (!stripe) return;
    await checkBundleFile(bundleFile);
    await orderRoutes(app, {
      webhookSecret: stripe.webhookSecret,
      stripe: stripeClient(stripe),
      bundleFile,
    });
  },
  { name: 'orders', dependencies: ['admin', 'mail-queue'] },
);
