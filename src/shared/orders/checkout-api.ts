/**
 * With STRIPE_SECRET_KEY the buy buttons ask the server for a Checkout Session made from the
 * published product (PublicConfig.checkoutSessions), so the price a buyer pays is the one the
 * page shows: POST CHECKOUT_PATH (the site's origin) → 200 { url } to go to; 502 { message }
 * when Stripe cannot be reached (the page then opens the published Payment Link).
 */
export const CHECKOUT_PATH = '/api/checkout';

export type CheckoutAnswer = { url: string };
