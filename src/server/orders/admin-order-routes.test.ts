import { beforeAll, expect, it } from 'vitest';
import type { AuditPage } from '../../shared/admin/audit-api';
import type { AdminOrder, OrderPage } from '../../shared/orders/order-api';
import { linkIn, OWNER, useOrdersApp } from '../../../tests/support/orders-app';
import { freshIp, signIn } from '../../../tests/support/sign-in';
import { checkoutSession, stripeEvent, charge } from '../../../tests/support/stripe-events';
import { describeEachDatabase } from '../../../tests/support/test-database';

describeEachDatabase('admin orders', (use) => {
  const orderApp = useOrdersApp(use);
  const { pay, receiptFor, download, settled, mailsTo, status } = orderApp;
  let cookie: string;

  beforeAll(async () => {
    cookie = await signIn(orderApp.app, orderApp.sink, OWNER);
  });

  const headers = () => ({ cookie, origin: orderApp.app.config.publicUrl });
  const get = (url: string) => orderApp.app.inject({ method: 'GET', url, headers: headers() });
  const send = (method: 'POST' | 'PUT', url: string, payload: unknown = {}) =>
    orderApp.app.inject({ method, url, headers: headers(), payload: payload as object });
  const list = async (query = '') => (await get(`/api/admin/orders${query}`)).json() as OrderPage;

  it('needs an admin', async () => {
    expect((await orderApp.app.inject('/api/admin/orders')).statusCode).toBe(401);
  });

  it('lists orders newest first with their downloads, filters by status and searches', async () => {
    const first = await pay(
      checkoutSession({ customer_details: { email: 'ann@example.com', name: 'Ann Lee' } }),
    );
    await pay(
      checkoutSession({
        amount_total: 100,
        customer_details: { email: 'bo@example.com', name: 'Bo' },
      }),
    );
    expect((await download(linkIn(await receiptFor('ann@example.com')))).statusCode).toBe(200);

    const page = await list();
    expect(page).toMatchObject({ count: 2, page: 0, pageSize: 25 });
    expect(page.orders.map((order) => order.email)).toEqual(['bo@example.com', 'ann@example.com']);
    expect(page.orders[1]).toMatchObject({
      sessionId: first.id,
      paymentIntent: first.payment_intent,
      name: 'Ann Lee',
      amountTotal: 2700,
      currency: 'usd',
      status: 'paid',
      downloads: 1,
      activeLinks: 1,
      linksRevokedAt: null,
      notes: '',
      source: null,
    } satisfies Partial<AdminOrder>);
    expect(page.orders[0]).toMatchObject({ status: 'review', downloads: 0, activeLinks: 0 });

    expect((await list('?status=review')).orders.map((order) => order.email)).toEqual([
      'bo@example.com',
    ]);
    expect((await list('?q=ANN')).orders.map((order) => order.email)).toEqual(['ann@example.com']);
    expect((await list(`?q=${first.payment_intent}`)).count).toBe(1);
    expect((await list('?q=100%25')).count).toBe(0);
    expect((await get('/api/admin/orders?status=lost')).statusCode).toBe(400);
  });

  it('shows where each buyer came from, as the verified webhook stored it', async () => {
    await pay(
      checkoutSession({
        metadata: {
          ...{ utm_source: 'ig', utm_medium: 'social', utm_campaign: 'spring' },
          ...{ utm_content: 'story b', utm_term: 'calm', channel: 'social' },
        },
      }),
    );
    await pay(checkoutSession({ metadata: { utm_source: 'newsletter' } }));
    const { orders } = await list();
    expect(orders.map((order) => order.source)).toEqual([
      {
        ...{ source: 'newsletter', medium: '', campaign: '', channel: 'email' },
        ...{ content: '', term: '' },
      },
      {
        ...{ source: 'ig', medium: 'social', campaign: 'spring', channel: 'social' },
        ...{ content: 'story b', term: 'calm' },
      },
    ]);
  });

  it('keeps the owner notes, audited', async () => {
    await pay();
    const [order] = (await list()).orders;
    const saved = await send('PUT', `/api/admin/orders/${order!.id}`, {
      notes: 'Asked for an invoice',
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().order.notes).toBe('Asked for an invoice');
    const audit = (await get('/api/admin/audit')).json() as AuditPage;
    expect(audit.rows[0]).toMatchObject({
      action: 'update',
      tableName: 'orders',
      rowIds: [order!.id],
    });
    expect((await send('PUT', '/api/admin/orders/999999', { notes: 'x' })).statusCode).toBe(404);
    expect((await send('PUT', `/api/admin/orders/${order!.id}`, { notes: 5 })).statusCode).toBe(
      400,
    );
  });

  it('revokes the links: no download, no new link for the buyer; resending opens them again', async () => {
    const session = await pay();
    const link = linkIn(await receiptFor('buyer@example.com'));
    const [order] = (await list()).orders;

    const revoked = await send('POST', `/api/admin/orders/${order!.id}/revoke`);
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json().order).toMatchObject({ activeLinks: 0, status: 'paid' });
    expect(revoked.json().order.linksRevokedAt).not.toBeNull();
    expect((await download(link)).headers.location).toBe('/#/download-link?reason=revoked');
    expect((await download(`/api/orders/session/${session.id}/download`)).headers.location).toBe(
      '/#/download-link?reason=revoked',
    );
    expect(await status(session.id)).toEqual({ status: 'paid', maskedEmail: 'b•••@example.com' });
    await orderApp.app.inject({
      method: 'POST',
      url: '/api/orders/resend-link',
      payload: { email: 'buyer@example.com' },
      remoteAddress: freshIp(),
    });
    await settled();
    expect(mailsTo('buyer@example.com')).toHaveLength(1);

    const resent = await send('POST', `/api/admin/orders/${order!.id}/resend-link`);
    expect(resent.statusCode).toBe(201);
    expect(resent.json().order).toMatchObject({ activeLinks: 1, linksRevokedAt: null });
    const fresh = await orderApp.sink.waitFor((mail) =>
      mail.subject.startsWith('Your new download link'),
    );
    expect((await download(linkIn(fresh))).statusCode).toBe(200);
    expect((await download(link)).headers.location).toBe('/#/download-link?reason=revoked');

    const actions = ((await get('/api/admin/audit')).json() as AuditPage).rows.map(
      (entry) => entry.action,
    );
    expect(actions.slice(0, 2)).toEqual(['resend', 'revoke']);
  });

  it('sends a held order its receipt once the owner has checked it; refuses a refunded one', async () => {
    const held = await pay(checkoutSession({ currency: 'eur' }));
    const [order] = (await list()).orders;
    const sent = await send('POST', `/api/admin/orders/${order!.id}/resend-link`);
    expect(sent.json().order.status).toBe('paid');
    const receipt = await receiptFor('buyer@example.com');
    expect(receipt.subject).toBe('Your Soul Reset Bundle: receipt and download link');

    await orderApp.deliver(stripeEvent('charge.refunded', charge(held.payment_intent, 2700)));
    const refused = await send('POST', `/api/admin/orders/${order!.id}/resend-link`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(
      `Order ${order!.id} is refunded: only a paid order gets a link.`,
    );
  });

  it('erasing a buyer keeps the order for accounting, without the person', async () => {
    await pay();
    await receiptFor('buyer@example.com');
    await settled();
    const erased = await send('POST', '/api/admin/people/erase', { email: 'buyer@example.com' });
    expect(erased.statusCode).toBe(200);
    const [order] = (await list()).orders;
    expect(order).toMatchObject({
      email: '[erased]',
      name: '[erased]',
      amountTotal: 2700,
      status: 'paid',
    });
    expect(JSON.stringify(order)).not.toContain('buyer@example.com');
  });
});
