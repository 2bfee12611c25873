import { expect, it } from 'vitest';
import { useOrdersApp } from '../../../tests/support/orders-app';
import { checkoutSession, stripeEvent } from '../../../tests/support/stripe-events';
import { describeEachDatabase } from '../../../tests/support/test-database';

let counter = 0;
const buyer = (label: string) => `${label}-${Date.now()}-${++counter}@example.com`;

describeEachDatabase('a buyer joins the list from the checkout', (use) => {
  const orderApp = useOrdersApp(use);
  const subscriber = (email: string) =>
    use()
      .db.selectFrom('list_subscribers')
      .selectAll()
      .where('email', '=', email)
      .executeTakeFirst();

  it('confirms a buyer who opted in, from the signed event, once; with the welcome email', async () => {
    const email = buyer('optin');
    const session = {
      ...checkoutSession({ customer_details: { email, name: 'Bea Buyer' } }),
      consent: { promotions: 'opt_in' },
      metadata: { store_version: String(orderApp.app.store.published().version) },
    };
    const event = stripeEvent('checkout.session.completed', session);
    expect((await orderApp.deliver(event)).statusCode).toBe(200);
    const row = await subscriber(email);
    expect(row).toMatchObject({ status: 'confirmed', source: 'checkout', name: 'Bea Buyer' });
    const events = await use()
      .db.selectFrom('list_consent_events')
      .select(['kind', 'source', 'wording_version'])
      .where('subscriber_id', '=', row!.id)
      .execute();
    expect(events).toEqual([
      {
        kind: 'confirmed',
        source: 'checkout webhook',
        wording_version: orderApp.app.store.published().version,
      },
    ]);
    const welcome = await orderApp.sink.waitFor(
      (mail) => mail.envelopeTo.includes(email) && mail.subject.startsWith('Welcome'),
    );
    expect(welcome.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    // Stripe retries: the replay changes nothing.
    expect((await orderApp.deliver(event)).statusCode).toBe(200);
    await orderApp.settled();
    expect(
      orderApp.mailsTo(email).filter((mail) => mail.subject.startsWith('Welcome')),
    ).toHaveLength(1);
  });

  it('adds no one who did not opt in, or whose payment is not complete', async () => {
    const declined = buyer('declined');
    const silent = buyer('silent');
    const unpaid = buyer('unpaid');
    await orderApp.pay({
      ...checkoutSession({ customer_details: { email: declined, name: null } }),
      consent: { promotions: 'opt_out' },
    } as ReturnType<typeof checkoutSession>);
    await orderApp.pay(checkoutSession({ customer_details: { email: silent, name: null } }));
    await orderApp.pay({
      ...checkoutSession({
        customer_details: { email: unpaid, name: null },
        payment_status: 'unpaid',
      }),
      consent: { promotions: 'opt_in' },
    } as ReturnType<typeof checkoutSession>);
    for (const email of [declined, silent, unpaid]) expect(await subscriber(email)).toBeUndefined();
  });
});
