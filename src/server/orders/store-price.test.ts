import { sql } from 'kysely';
import { beforeEach, describe, expect, it } from 'vitest';
import { OWNER, useOrdersApp } from '../../../tests/support/orders-app';
import { checkoutSession } from '../../../tests/support/stripe-events';
import { describeEachDatabase } from '../../../tests/support/test-database';
import type { StoreContent } from '../../shared/store/store-content';

/**
 * The webhook's amount check reads the store's versions (DESIGN.md "The offer, edited by the
 * owner"): the version the session names, else any price on sale in the last 24 hours.
 */
describeEachDatabase('the price a payment is checked against', (use) => {
  const orderApp = useOrdersApp(use);
  const { pay, orders, receiptFor, settled, mailsTo } = orderApp;

  /** Version 1 (the seed, $27) as published `age` ago. */
  async function firstPublished(age: string) {
    await sql`update store_versions set published_at = now() - ${age}::interval
      where version = 1`.execute(use().db);
  }

  /** The next version at `priceCents` (in `currency`), published `age` ago. */
  async function publish(
    priceCents: number,
    age = '0 seconds',
    currency = 'usd',
    sale?: StoreContent['product']['sale'],
  ) {
    const { db } = use();
    const latest = await db
      .selectFrom('store_versions')
      .select(['version', 'content'])
      .orderBy('version', 'desc')
      .executeTakeFirstOrThrow();
    const content = latest.content as StoreContent;
    const next = { ...content, product: { ...content.product, priceCents, currency, sale } };
    await sql`insert into store_versions (version, content, published_at, published_by)
      values (${latest.version + 1}, ${JSON.stringify(next)}::jsonb,
        now() - ${age}::interval, ${OWNER})`.execute(db);
    return latest.version + 1;
  }

  /** Why the owner was told a payment is held for review. */
  async function reviewNote() {
    const note = await orderApp.sink.waitFor(
      (mail) => mail.envelopeTo.includes(OWNER) && /held for review/.test(mail.subject),
    );
    await settled();
    expect(mailsTo('buyer@example.com')).toHaveLength(0);
    expect((await orders())[0]!.status).toBe('review');
    return note.text;
  }

  beforeEach(async () => {
    await sql`delete from store_versions where version > 1`.execute(use().db);
    await firstPublished('0 seconds');
  });

  it('pays at the old price within 24 hours of a price change, and at the new one', async () => {
    await firstPublished('30 days');
    await publish(3500, '2 hours');
    await pay(checkoutSession({ amount_total: 2700 }));
    await receiptFor('buyer@example.com');
    await pay(
      checkoutSession({
        amount_total: 3500,
        customer_details: { email: 'b2@example.com', name: null },
      }),
    );
    await receiptFor('b2@example.com');
    expect((await orders()).map((order) => order.status)).toEqual(['paid', 'paid']);
  });

  it('holds a price whose sale ended more than 24 hours ago', async () => {
    await firstPublished('30 days');
    await publish(3500, '25 hours');
    await pay(checkoutSession({ amount_total: 2700 }));
    expect(await reviewNote()).toContain('Paid $27.00; the product costs $35.00.');
  });

  it('holds a price that was never published', async () => {
    await publish(3500);
    await pay(checkoutSession({ amount_total: 3100 }));
    expect(await reviewNote()).toContain('Paid $31.00; the product costs $35.00.');
  });

  it('a currency never sold in is held too', async () => {
    await publish(2700, '1 hour', 'eur');
    await pay(checkoutSession({ amount_total: 2700, currency: 'gbp' }));
    expect(await reviewNote()).toContain('Paid £27.00; the product costs €27.00.');
  });

  it('with metadata.store_version, checks that version’s price alone', async () => {
    await firstPublished('30 days');
    const version = await publish(3500, '40 hours');
    await publish(4100);
    // Version 2's sale ended now, but the session names it: its price is what was agreed.
    await pay(
      checkoutSession({ amount_total: 3500, metadata: { store_version: String(version) } }),
    );
    await receiptFor('buyer@example.com');
    expect((await orders())[0]!.status).toBe('paid');
  });

  it('with metadata.store_version, another version’s price is held', async () => {
    await publish(3500);
    // $27 was on sale an instant ago, but the session was made at version 2's $35.
    await pay(checkoutSession({ amount_total: 2700, metadata: { store_version: '2' } }));
    expect(await reviewNote()).toContain(
      'Paid $27.00; store version 2 sold the product at $35.00.',
    );
  });

  it.each([
    [
      'a version never published',
      '9',
      'the checkout names store version 9, which was never published',
    ],
    [
      'no version number',
      'latest',
      'the checkout names a store version, which was never published',
    ],
  ])(
    'with metadata naming %s, holds the payment (the event is still taken)',
    async (_what, named, why) => {
      await pay(checkoutSession({ amount_total: 2700, metadata: { store_version: named } }));
      expect(await reviewNote()).toContain(why);
    },
  );

  describe('a sale', () => {
    const endedAt = new Date(Date.now() - 60_000);
    const sale = { priceCents: 1900, endsAt: endedAt.toISOString() };
    const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

    it('its price is paid for a session created before its end, though the webhook comes after', async () => {
      const version = await publish(2700, '2 days', 'usd', sale);
      await pay(
        checkoutSession({
          amount_total: 1900,
          created: seconds(endedAt) - 30,
          metadata: { store_version: String(version) },
        }),
      );
      await receiptFor('buyer@example.com');
      expect((await orders())[0]!.status).toBe('paid');
    });

    it('its price is held for a session created after its end', async () => {
      const version = await publish(2700, '2 days', 'usd', sale);
      await pay(
        checkoutSession({
          amount_total: 1900,
          created: seconds(endedAt) + 1,
          metadata: { store_version: String(version) },
        }),
      );
      expect(await reviewNote()).toContain(
        `Paid $19.00; store version ${version} sold the product at $27.00.`,
      );
    });

    it('its price is held for a session created before it started', async () => {
      const starts = new Date(Date.now() - 3_600_000);
      const version = await publish(2700, '2 days', 'usd', {
        ...sale,
        endsAt: new Date(Date.now() + 3_600_000).toISOString(),
        startsAt: starts.toISOString(),
      });
      await pay(
        checkoutSession({
          amount_total: 1900,
          created: seconds(starts) - 10,
          metadata: { store_version: String(version) },
        }),
      );
      expect(await reviewNote()).toContain('Paid $19.00');
    });
  });

  describe('tax and discounts', () => {
    it('an exclusive tax on top of the price is paid: the amount before tax is the price', async () => {
      await pay(
        checkoutSession({
          amount_subtotal: 2700,
          amount_total: 3240,
          total_details: { amount_discount: 0, amount_tax: 540 },
        }),
      );
      await receiptFor('buyer@example.com');
      expect((await orders())[0]!.status).toBe('paid');
    });

    it('a discount no code of the store explains is held for review', async () => {
      await pay(
        checkoutSession({
          amount_subtotal: 2700,
          amount_total: 1700,
          total_details: { amount_discount: 1000, amount_tax: 0 },
        }),
      );
      const note = await reviewNote();
      expect(note).toContain('A discount of $10.00 names no code of the store.');
      expect(note).toContain('Paid $17.00.');
    });
  });
});
