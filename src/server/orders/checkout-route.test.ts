import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { CHECKOUT_PATH } from '../../shared/orders/checkout-api';
import { useOrdersApp } from '../../../tests/support/orders-app';
import { freshIp } from '../../../tests/support/sign-in';
import { describeEachDatabase } from '../../../tests/support/test-database';
import { sessionParams } from './checkout-route';

describeEachDatabase('POST /api/checkout', (use) => {
  const orderApp = useOrdersApp(use);
  const checkout = (origin: string | undefined = orderApp.app.config.publicUrl) =>
    orderApp.app.inject({
      method: 'POST',
      url: CHECKOUT_PATH,
      remoteAddress: freshIp(),
      headers: origin ? { origin } : {},
    });

  it('creates a Checkout Session of the published product at its published price', async () => {
    const response = await checkout();
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      url: expect.stringMatching(/^https:\/\/checkout\.stripe\.test\/c\/pay\/cs_test_created\d+$/),
    });
    const { publicUrl } = orderApp.app.config;
    const { version, content } = orderApp.app.store.published();
    expect(orderApp.stripeApi.created.at(-1)).toEqual({
      mode: 'payment',
      'line_items[0][quantity]': '1',
      'line_items[0][price_data][currency]': content.product.currency,
      'line_items[0][price_data][unit_amount]': String(content.product.priceCents),
      'line_items[0][price_data][product_data][name]': content.product.name,
      success_url: `${publicUrl}/thank-you?session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${publicUrl}/`,
      'metadata[store_version]': String(version),
      'consent_collection[promotions]': 'auto',
      // No code on the page: the buyer may type one in Stripe's checkout.
      allow_promotion_codes: 'true',
    });
    expect(orderApp.stripeApi.requests.at(-1)?.authorization).toBe('Bearer sk_test_local');
  });

  it('refuses a request from another site or none', async () => {
    const before = orderApp.stripeApi.created.length;
    expect((await checkout('https://evil.example')).statusCode).toBe(403);
    expect((await checkout(null as unknown as undefined)).statusCode).toBe(403);
    expect(orderApp.stripeApi.created).toHaveLength(before);
  });

  it('answers 502 with a clear message when Stripe fails', async () => {
    orderApp.stripeApi.failing = true;
    try {
      const response = await checkout();
      expect(response.statusCode).toBe(502);
      expect(response.json()).toEqual({
        error: 'Bad Gateway',
        message: 'The checkout could not be opened. Please try again in a moment.',
      });
    } finally {
      orderApp.stripeApi.failing = false;
    }
  });

  it('carries a live sale’s price, and the regular price once the sale has ended', async () => {
    const { db } = orderApp.app.database;
    const { content } = orderApp.app.store.published();
    const endsAt = new Date(Date.now() + 1_500).toISOString();
    const product = { ...content.product, sale: { priceCents: 1900, endsAt } };
    await sql`insert into store_versions (version, content, published_by)
      select max(version) + 1, ${JSON.stringify({ ...content, product })}::jsonb, 'test'
      from store_versions`.execute(db);
    await orderApp.app.store.refresh();
    expect((await checkout()).statusCode).toBe(200);
    expect(orderApp.stripeApi.created.at(-1)?.['line_items[0][price_data][unit_amount]']).toBe(
      '1900',
    );
    await new Promise((resolve) => setTimeout(resolve, Date.parse(endsAt) - Date.now() + 10));
    expect((await checkout()).statusCode).toBe(200);
    expect(orderApp.stripeApi.created.at(-1)?.['line_items[0][price_data][unit_amount]']).toBe(
      String(content.product.priceCents),
    );
  });

  it('asks Stripe for automatic tax with the price’s tax behaviour under STRIPE_AUTOMATIC_TAX', () => {
    const published = orderApp.app.store.published();
    const params = sessionParams(published, 'https://shop.example', {
      tax: { behavior: 'inclusive' },
    });
    expect(params.automatic_tax).toEqual({ enabled: true });
    expect(params.line_items?.[0]?.price_data?.tax_behavior).toBe('inclusive');
    expect(sessionParams(published, 'https://shop.example').automatic_tax).toBeUndefined();
  });
});
