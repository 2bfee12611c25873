import { sql } from 'kysely';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { useOrdersApp, OWNER } from '../../../tests/support/orders-app';
import { freshIp, signIn } from '../../../tests/support/sign-in';
import { stripeEvent } from '../../../tests/support/stripe-events';
import { describeEachDatabase } from '../../../tests/support/test-database';
import { CODES_PATH, codePath, type AdminCode, type CodeList } from '../../shared/codes/codes-api';
import { CHECKOUT_PATH } from '../../shared/orders/checkout-api';

const PRICE = 2700;

describeEachDatabase('discount codes', (use) => {
  const orderApp = useOrdersApp(use);
  let cookie: string;
  const admin = () => ({ cookie, origin: orderApp.app.config.publicUrl });

  beforeAll(async () => {
    cookie = await signIn(orderApp.app, orderApp.sink, OWNER);
  });
  beforeEach(async () => {
    await use().db.deleteFrom('discount_codes').execute();
    orderApp.stripeApi.coupons.clear();
    orderApp.stripeApi.promotionCodes.clear();
  });

  const create = (body: Record<string, unknown>) =>
    orderApp.app.inject({ method: 'POST', url: CODES_PATH, headers: admin(), payload: body });
  const update = (code: string, body: Record<string, unknown>) =>
    orderApp.app.inject({ method: 'PUT', url: codePath(code), headers: admin(), payload: body });
  const list = async () =>
    ((await orderApp.app.inject({ url: CODES_PATH, headers: admin() })).json() as CodeList).rows;
  const checkout = (body: Record<string, unknown> = {}) =>
    orderApp.app.inject({
      method: 'POST',
      url: CHECKOUT_PATH,
      remoteAddress: freshIp(),
      headers: { origin: orderApp.app.config.publicUrl },
      payload: body,
    });
  const stripeRequests = (path: string) =>
    orderApp.stripeApi.requests.filter((request) => request.path.startsWith(path));
  /** The Checkout Session the local Stripe made, completed and paid, as its webhook carries it. */
  const paidSession = (id: string, overrides: Record<string, unknown> = {}) => ({
    ...(orderApp.stripeApi.sessions.get(id) as Record<string, unknown>),
    status: 'complete',
    payment_status: 'paid',
    payment_intent: `pi_test_${id.slice(-12)}${Date.now()}`,
    customer_details: { email: 'coded@example.com', name: 'Cody Buyer' },
    customer_email: null,
    ...overrides,
  });
  const sessionIdOf = (url: string) => url.split('/').at(-1)!;

  describe('the admin routes', () => {
    it('create a code with its coupon and promotion code in Stripe, once per Idempotency-Key', async () => {
      const endsAt = new Date(Date.now() + 86_400_000).toISOString();
      const response = await create({
        code: 'spring',
        percentOff: 20,
        maxUses: 3,
        endsAt,
        active: true,
      });
      expect(response.statusCode).toBe(201);
      const code = response.json() as AdminCode;
      expect(code).toMatchObject({
        code: 'SPRING',
        percentOff: 20,
        amountOffCents: null,
        maxUses: 3,
        endsAt,
        active: true,
        uses: 0,
        revenueCents: 0,
      });
      const [coupon] = [...orderApp.stripeApi.coupons.values()];
      expect(coupon).toMatchObject({ percent_off: 20, duration: 'once', name: 'SPRING' });
      const [promotion] = [...orderApp.stripeApi.promotionCodes.values()];
      expect(promotion).toMatchObject({
        code: 'SPRING',
        active: true,
        max_redemptions: 3,
        expires_at: Math.floor(Date.parse(endsAt) / 1000),
        promotion: { type: 'coupon', coupon: coupon!.id },
      });
      expect(code.stripePromotionCode).toBe(promotion!.id);
      for (const request of [
        ...stripeRequests('/v1/coupons'),
        ...stripeRequests('/v1/promotion_codes'),
      ]) {
        expect(request.idempotencyKey).toMatch(/^discount-code-(coupon|promotion)-[0-9a-f]{16}$/);
      }
      // The activity log has the creation.
      const { rows } = await sql<{ action: string; table_name: string; admin_email: string }>`
        select action, table_name, admin_email from admin_audit_log
        where table_name = 'discount_codes' order by id`.execute(orderApp.app.database.db);
      expect(rows.at(-1)).toEqual({
        action: 'create',
        table_name: 'discount_codes',
        admin_email: OWNER,
      });
      expect((await create({ code: 'SPRING', percentOff: 5, active: true })).statusCode).toBe(409);
    });

    it('refuse a bad body with the field’s message, and a request from another site', async () => {
      const both = await create({ code: 'TWO', percentOff: 10, amountOffCents: 100, active: true });
      expect(both.statusCode).toBe(400);
      expect(both.json().message).toContain('either a percentage off or an amount off');
      const badCode = await create({ code: 'no spaces', percentOff: 10, active: true });
      expect(badCode.statusCode).toBe(400);
      expect(badCode.json().message).toContain('letters, digits or dashes');
      const backwards = await create({
        code: 'BACK',
        percentOff: 10,
        startsAt: '2030-01-02T00:00:00Z',
        endsAt: '2030-01-01T00:00:00Z',
        active: true,
      });
      expect(backwards.json().message).toContain('end after it starts');
      const foreign = await orderApp.app.inject({
        method: 'POST',
        url: CODES_PATH,
        headers: { cookie, origin: 'https://evil.example' },
        payload: { code: 'EVIL', percentOff: 90, active: true },
      });
      expect(foreign.statusCode).toBe(403);
      const anonymous = await orderApp.app.inject({ url: CODES_PATH });
      expect(anonymous.statusCode).toBe(401);
      expect(await list()).toEqual([]);
    });

    it('follow an edit with a new promotion code (the old one switched off), and a deactivation', async () => {
      expect((await create({ code: 'EDIT', percentOff: 10, active: true })).statusCode).toBe(201);
      const first = [...orderApp.stripeApi.promotionCodes.values()][0]!;
      const edited = await update('EDIT', {
        code: 'EDIT',
        amountOffCents: 500,
        maxUses: 10,
        active: true,
      });
      expect(edited.statusCode).toBe(200);
      expect(edited.json()).toMatchObject({
        percentOff: null,
        amountOffCents: 500,
        currency: 'usd',
      });
      expect(first.active).toBe(false);
      const second = orderApp.stripeApi.promotionCodes.get(
        (edited.json() as AdminCode).stripePromotionCode!,
      )!;
      expect(second).toMatchObject({ code: 'EDIT', active: true, max_redemptions: 10 });
      expect(orderApp.stripeApi.coupons.get(second.promotion.coupon)).toMatchObject({
        amount_off: 500,
        currency: 'usd',
      });

      const off = await update('EDIT', {
        code: 'EDIT',
        amountOffCents: 500,
        maxUses: 10,
        active: false,
      });
      expect(off.json()).toMatchObject({ active: false });
      expect(second.active).toBe(false);
      const on = await update('EDIT', {
        code: 'EDIT',
        amountOffCents: 500,
        maxUses: 10,
        active: true,
      });
      expect(on.json()).toMatchObject({ active: true, stripePromotionCode: second.id });
      expect(second.active).toBe(true);
      expect(orderApp.stripeApi.promotionCodes.size).toBe(2);

      expect((await update('NONE', { code: 'NONE', percentOff: 5, active: true })).statusCode).toBe(
        404,
      );
      const renamed = await update('EDIT', { code: 'OTHER', percentOff: 5, active: true });
      expect(renamed.statusCode).toBe(400);
    });

    it('keep nothing when Stripe fails, and a retry creates the coupon once', async () => {
      orderApp.stripeApi.failing = true;
      try {
        const failed = await create({ code: 'RETRY', percentOff: 15, active: true });
        expect(failed.statusCode).toBe(502);
        expect(failed.json().message).toContain('Stripe could not be reached');
      } finally {
        orderApp.stripeApi.failing = false;
      }
      expect(await list()).toEqual([]);
      expect(orderApp.stripeApi.coupons.size).toBe(1);
      const saved = await create({ code: 'RETRY', percentOff: 15, active: true });
      expect(saved.statusCode).toBe(201);
      // The coupon's create was answered again from its Idempotency-Key: still one coupon.
      expect(orderApp.stripeApi.coupons.size).toBe(1);
      const keys = stripeRequests('/v1/coupons').map((request) => request.idempotencyKey);
      expect(keys).toHaveLength(2);
      expect(keys[0]).toBe(keys[1]);
    });
  });

  describe('the checkout', () => {
    it('applies a code with `discounts`, or lets the buyer type one when none is given', async () => {
      await create({ code: 'SPRING', percentOff: 20, active: true });
      const promotion = [...orderApp.stripeApi.promotionCodes.values()][0]!;
      const coded = await checkout({ code: 'spring' });
      expect(coded.statusCode).toBe(200);
      const fields = orderApp.stripeApi.created.at(-1)!;
      expect(fields['discounts[0][promotion_code]']).toBe(promotion.id);
      expect(fields['metadata[discount_code]']).toBe('SPRING');
      expect(fields.allow_promotion_codes).toBeUndefined();
      const session = orderApp.stripeApi.sessions.get(sessionIdOf(coded.json().url)) as {
        amount_subtotal: number;
        amount_total: number;
        total_details: { amount_discount: number };
      };
      expect(session).toMatchObject({
        amount_subtotal: PRICE,
        amount_total: PRICE - 540,
        total_details: { amount_discount: 540 },
      });

      expect((await checkout()).statusCode).toBe(200);
      const plain = orderApp.stripeApi.created.at(-1)!;
      expect(plain.allow_promotion_codes).toBe('true');
      expect(Object.keys(plain).some((key) => key.startsWith('discounts'))).toBe(false);
    });

    it('refuses a code at its maximum uses, past its end, switched off or unknown, with why', async () => {
      await create({ code: 'ONCE', percentOff: 10, maxUses: 1, active: true });
      const first = await checkout({ code: 'ONCE' });
      const paid = await orderApp.deliver(
        stripeEvent('checkout.session.completed', paidSession(sessionIdOf(first.json().url))),
      );
      expect(paid.statusCode).toBe(200);
      expect((await orderApp.orders())[0]).toMatchObject({ status: 'paid', discount_code: 'ONCE' });
      const limit = await checkout({ code: 'ONCE' });
      expect(limit.statusCode).toBe(409);
      expect(limit.json().message).toBe('The code ONCE has been used as many times as it can be.');

      const db = orderApp.app.database.db;
      await create({ code: 'OVER', percentOff: 10, active: true });
      await db
        .updateTable('discount_codes')
        .set({
          starts_at: new Date('2026-01-01T00:00:00Z'),
          ends_at: new Date('2026-01-02T18:00:00Z'),
        })
        .where('code', '=', 'OVER')
        .execute();
      const ended = await checkout({ code: 'OVER' });
      expect(ended.statusCode).toBe(409);
      expect(ended.json().message).toBe('The code OVER ended on Jan 2, 2026, 6:00 PM UTC.');

      await create({ code: 'OFF', percentOff: 10, active: false });
      expect((await checkout({ code: 'OFF' })).json().message).toBe('The code OFF is not valid.');
      expect((await checkout({ code: 'NOPE' })).json().message).toContain('This code is not valid');
    });
  });

  describe('the webhook', () => {
    it('fulfils a coded payment, counting the code’s uses and revenue from verified orders', async () => {
      await create({ code: 'SUMMER', percentOff: 20, active: true });
      const started = await checkout({ code: 'SUMMER' });
      const id = sessionIdOf(started.json().url);
      await orderApp.pay(paidSession(id) as never);
      await orderApp.receiptFor('coded@example.com');
      expect((await orderApp.orders())[0]).toMatchObject({
        status: 'paid',
        amount_total: PRICE - 540,
        discount_code: 'SUMMER',
        amount_discount: 540,
      });
      // An unpaid session with the code counts nothing.
      const open = await checkout({ code: 'SUMMER' });
      expect(open.json()).toEqual({ url: expect.any(String) });
      await orderApp.deliver(
        stripeEvent('checkout.session.completed', {
          ...paidSession(sessionIdOf(open.json().url)),
          payment_status: 'unpaid',
        }),
      );
      const [row] = await list();
      expect(row).toMatchObject({ code: 'SUMMER', uses: 1, revenueCents: PRICE - 540 });
    });

    it('compares the subtotal and the discount, so tax on top never breaks the check', async () => {
      await create({ code: 'TAXED', amountOffCents: 700, active: true });
      const started = await checkout({ code: 'TAXED' });
      const id = sessionIdOf(started.json().url);
      await orderApp.pay(
        paidSession(id, {
          amount_subtotal: PRICE,
          amount_total: PRICE - 700 + 400,
          total_details: { amount_discount: 700, amount_tax: 400, amount_shipping: 0 },
        }) as never,
      );
      await orderApp.receiptFor('coded@example.com');
      expect((await orderApp.orders())[0]).toMatchObject({
        status: 'paid',
        discount_code: 'TAXED',
      });
    });

    it('holds for review a discount no active code explains', async () => {
      await create({ code: 'SMALL', percentOff: 10, active: true });
      const started = await checkout({ code: 'SMALL' });
      // The session claims the code but took 90% off.
      await orderApp.pay(
        paidSession(sessionIdOf(started.json().url), {
          amount_total: 270,
          total_details: { amount_discount: 2430, amount_tax: 0, amount_shipping: 0 },
        }) as never,
      );
      await orderApp.settled();
      const [order] = await orderApp.orders();
      expect(order).toMatchObject({ status: 'review', discount_code: null });
      const note = await orderApp.sink.waitFor(
        (mail) => mail.envelopeTo.includes(OWNER) && /review/i.test(mail.subject),
      );
      expect(note.text).toContain(
        'A discount of $24.30 is not what the code SMALL takes off $27.00',
      );
      expect(orderApp.mailsTo('coded@example.com')).toEqual([]);

      // A code switched off before the payment explains nothing either.
      const second = await checkout({ code: 'SMALL' });
      await update('SMALL', { code: 'SMALL', percentOff: 10, active: false });
      await orderApp.pay(
        paidSession(sessionIdOf(second.json().url), {
          customer_details: { email: 'late@example.com', name: null },
        }) as never,
      );
      const late = (await orderApp.orders()).find((row) => row.email === 'late@example.com');
      expect(late).toMatchObject({ status: 'review' });
      expect((await list())[0]).toMatchObject({ uses: 0, revenueCents: 0 });
    });
  });
});
