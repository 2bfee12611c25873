import { sql } from 'kysely';
import { beforeEach, expect, it } from 'vitest';
import { useOrdersApp } from '../../../tests/support/orders-app';
import { checkoutSession } from '../../../tests/support/stripe-events';
import { describeEachDatabase } from '../../../tests/support/test-database';
import { newToken, tokenHash } from '../http/tokens';
import { runExclusively } from '../periodic/periodic-work';
import { listUnsubscribePath } from '../../shared/list/list-api';
import { endSequence } from './sequence-end';
import { enqueueDueSteps, sequenceSteps } from './sequence-enqueue';

const DAY = 86_400_000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY);
let counter = 0;

describeEachDatabase('the follow-up sequence: enqueuing and ending', (use, kind) => {
  const orderApp = useOrdersApp(use);
  const db = () => use().db;

  beforeEach(async () => {
    await db().deleteFrom('broadcasts').execute();
    await db().deleteFrom('list_subscribers').execute();
    await db()
      .updateTable('list_sequence')
      .set({ active: true, active_since: daysAgo(30), updated_at: new Date() })
      .execute();
  });

  async function step(delayDays: number, addedDaysAgo = 30) {
    const position = ++counter;
    const row = await db()
      .insertInto('broadcasts')
      .values({
        kind: 'sequence',
        slug: `sequence-test-${position}`,
        subject: `Day ${delayDays}`,
        html: `<p>Day ${delayDays}</p>`,
        status: 'sending',
        position,
        delay_days: delayDays,
        created_at: daysAgo(addedDaysAgo),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  }

  async function subscriber(confirmedDaysAgo: number, email = `s${++counter}@example.com`) {
    const row = await db()
      .insertInto('list_subscribers')
      .values({
        email,
        name: 'Sam',
        source: 'free-guide',
        status: 'confirmed',
        confirmed_at: daysAgo(confirmedDaysAgo),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { id: Number(row.id), email };
  }

  /** Moves a subscriber's confirmation back, as the days going by would. */
  const age = (id: number, confirmedDaysAgo: number) =>
    db()
      .updateTable('list_subscribers')
      .set({ confirmed_at: daysAgo(confirmedDaysAgo) })
      .where('id', '=', id)
      .execute();

  const queued = async (subscriberId?: number) => {
    let query = db()
      .selectFrom('broadcast_recipients')
      .select(['broadcast_id', 'subscriber_id', 'status'])
      .orderBy('broadcast_id')
      .orderBy('subscriber_id');
    if (subscriberId !== undefined) query = query.where('subscriber_id', '=', subscriberId);
    return (await query.execute()).map((row) => ({
      step: Number(row.broadcast_id),
      subscriber: Number(row.subscriber_id),
      status: row.status,
    }));
  };

  const run = () => runExclusively(db(), 99, sequenceSteps.run);

  it('enqueues each step once its day has come, once per subscriber, however often it runs', async () => {
    const day0 = await step(0);
    const day2 = await step(2);
    const day5 = await step(5);
    const sam = await subscriber(3);
    const new1 = await subscriber(0.01);
    expect(await run()).toBe(true);
    expect(await queued()).toEqual([
      { step: day0, subscriber: sam.id, status: 'pending' },
      { step: day0, subscriber: new1.id, status: 'pending' },
      { step: day2, subscriber: sam.id, status: 'pending' },
    ]);
    expect(await enqueueDueSteps(db())).toBe(0);
    await age(sam.id, 5.1);
    expect(await enqueueDueSteps(db())).toBe(1);
    expect(await queued(sam.id)).toEqual([
      { step: day0, subscriber: sam.id, status: 'pending' },
      { step: day2, subscriber: sam.id, status: 'pending' },
      { step: day5, subscriber: sam.id, status: 'pending' },
    ]);
  });

  it('adds each row once when two runs go at once (and one instance runs the task at a time)', async () => {
    await step(0);
    await step(1);
    for (let index = 0; index < 40; index += 1) await subscriber(2);
    const added = await Promise.all([
      db()
        .transaction()
        .execute((trx) => enqueueDueSteps(trx)),
      db()
        .transaction()
        .execute((trx) => enqueueDueSteps(trx)),
      db()
        .transaction()
        .execute((trx) => enqueueDueSteps(trx)),
    ]);
    expect(added.reduce((sum, count) => sum + count, 0)).toBe(80);
    expect(await queued()).toHaveLength(80);
    await subscriber(2);
    const runs = await Promise.all([run(), run()]);
    expect(runs.filter(Boolean).length).toBeGreaterThanOrEqual(1);
    const rows = await queued();
    expect(rows).toHaveLength(82);
    expect(new Set(rows.map((row) => `${row.step}:${row.subscriber}`)).size).toBe(82);
  });

  it('sends a step added later only to those whose day for it comes at most a day before it was added', async () => {
    const long = await subscriber(10);
    const recent = await subscriber(2.5);
    const coming = await subscriber(1);
    const day2 = await step(2, 0);
    await enqueueDueSteps(db());
    // long's day 2 was 8 days before the step existed; recent's half a day before it.
    expect(await queued()).toEqual([{ step: day2, subscriber: recent.id, status: 'pending' }]);
    await age(coming.id, 2);
    await enqueueDueSteps(db());
    expect((await queued()).map((row) => row.subscriber).sort()).toEqual(
      [recent.id, coming.id].sort(),
    );
    expect(await queued(long.id)).toEqual([]);
  });

  it('enqueues nothing while switched off, and after it is switched on only days from then on', async () => {
    await db().updateTable('list_sequence').set({ active: false }).execute();
    const day1 = await step(1);
    const before = await subscriber(5);
    const now = await subscriber(1.2);
    expect(await enqueueDueSteps(db())).toBe(0);
    await db()
      .updateTable('list_sequence')
      .set({ active: true, active_since: new Date() })
      .execute();
    expect(await enqueueDueSteps(db())).toBe(1);
    expect(await queued()).toEqual([{ step: day1, subscriber: now.id, status: 'pending' }]);
    expect(await queued(before.id)).toEqual([]);
  });

  it('leaves out subscribers no longer confirmed, removed steps, and buyers', async () => {
    await step(0);
    await db()
      .updateTable('broadcasts')
      .set({ status: 'cancelled' })
      .where('id', '=', await step(0))
      .execute();
    const gone = await subscriber(1);
    await db()
      .updateTable('list_subscribers')
      .set({ status: 'unsubscribed' })
      .where('id', '=', gone.id)
      .execute();
    const buyer = await subscriber(1);
    await db()
      .insertInto('orders')
      .values({ session_id: `cs_${buyer.id}`, status: 'paid', email: buyer.email.toUpperCase() })
      .execute();
    const stays = await subscriber(1);
    await enqueueDueSteps(db());
    expect((await queued()).map((row) => row.subscriber)).toEqual([stays.id]);
  });

  it('ends the sequence at a verified paid order between two steps: the next one never goes', async () => {
    const day0 = await step(0);
    const day3 = await step(3);
    const day4 = await step(4);
    const sam = await subscriber(3.5, `buyer-${++counter}@example.com`);
    await enqueueDueSteps(db());
    // day 0 was sent; day 3 is queued, not yet sent.
    await db()
      .updateTable('broadcast_recipients')
      .set({ status: 'sent', sent_at: new Date() })
      .where('broadcast_id', '=', day0)
      .execute();
    await orderApp.pay(
      checkoutSession({ customer_details: { email: sam.email.toUpperCase(), name: 'Sam' } }),
    );
    const row = await db()
      .selectFrom('list_subscribers')
      .select(['sequence_ended_at', 'sequence_end_reason'])
      .where('id', '=', sam.id)
      .executeTakeFirstOrThrow();
    expect(row.sequence_end_reason).toBe('purchase');
    expect(row.sequence_ended_at).toBeInstanceOf(Date);
    expect(await queued(sam.id)).toEqual([
      { step: day0, subscriber: sam.id, status: 'sent' },
      { step: day3, subscriber: sam.id, status: 'skipped' },
    ]);
    await age(sam.id, 4.5);
    expect(await enqueueDueSteps(db())).toBe(0);
    expect((await queued(sam.id)).map((entry) => entry.step)).not.toContain(day4);
  });

  it('ends nothing at an order that is not paid, or held for review', async () => {
    await step(0);
    const sam = await subscriber(1, `held-${++counter}@example.com`);
    await enqueueDueSteps(db());
    await orderApp.pay(
      checkoutSession({ customer_details: { email: sam.email, name: 'Sam' }, amount_total: 100 }),
    );
    await orderApp.pay(
      checkoutSession({
        customer_details: { email: sam.email, name: 'Sam' },
        payment_status: 'unpaid',
      }),
    );
    const row = await db()
      .selectFrom('list_subscribers')
      .select('sequence_ended_at')
      .where('id', '=', sam.id)
      .executeTakeFirstOrThrow();
    expect(row.sequence_ended_at).toBeNull();
    expect((await queued(sam.id)).map((entry) => entry.status)).toEqual(['pending']);
  });

  it('ends the sequence at an unsubscribe, in its transaction', async () => {
    await step(0);
    const day2 = await step(2);
    const sam = await subscriber(1);
    await enqueueDueSteps(db());
    const token = newToken();
    await db()
      .insertInto('list_tokens')
      .values({ token_hash: tokenHash(token), subscriber_id: sam.id, purpose: 'unsubscribe' })
      .execute();
    const response = await orderApp.app.inject({
      method: 'POST',
      url: listUnsubscribePath(token),
      payload: 'List-Unsubscribe=One-Click',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(response.statusCode).toBe(200);
    const row = await db()
      .selectFrom('list_subscribers')
      .select(['status', 'sequence_end_reason'])
      .where('id', '=', sam.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'unsubscribed', sequence_end_reason: 'unsubscribed' });
    expect((await queued(sam.id)).map((entry) => entry.status)).toEqual(['skipped']);
    // Back on the list later (confirmed again): the sequence stays ended.
    await db()
      .updateTable('list_subscribers')
      .set({ status: 'confirmed', confirmed_at: daysAgo(3) })
      .where('id', '=', sam.id)
      .execute();
    await enqueueDueSteps(db());
    expect((await queued(sam.id)).map((entry) => entry.step)).not.toContain(day2);
  });

  if (kind === 'postgres') {
    it('an end racing a run either is seen by it or skips what it added', async () => {
      const day0 = await step(0);
      const sam = await subscriber(1);
      let release!: () => void;
      let enqueued!: () => void;
      const inside = new Promise<void>((resolve) => (enqueued = resolve));
      const running = db()
        .transaction()
        .execute(async (trx) => {
          await enqueueDueSteps(trx);
          enqueued();
          await new Promise<void>((resolve) => (release = resolve));
        });
      await inside;
      let ended = false;
      const ending = db()
        .transaction()
        .execute((trx) => endSequence(trx, { subscriberId: sam.id }, 'purchase'))
        .then(() => (ended = true));
      await new Promise((resolve) => setTimeout(resolve, 300));
      // The end waits for the run's commit...
      expect(ended).toBe(false);
      release();
      await running;
      await ending;
      // ...and then skips the row it added.
      expect(await queued(sam.id)).toEqual([{ step: day0, subscriber: sam.id, status: 'skipped' }]);
    });
  }

  it('records the end once: a later order keeps the first reason and time', async () => {
    const sam = await subscriber(1);
    await db()
      .transaction()
      .execute((trx) => endSequence(trx, { subscriberId: sam.id }, 'unsubscribed'));
    const first = await db()
      .selectFrom('list_subscribers')
      .select(['sequence_ended_at', 'sequence_end_reason'])
      .where('id', '=', sam.id)
      .executeTakeFirstOrThrow();
    await sql`select pg_sleep(0.01)`.execute(db());
    await db()
      .transaction()
      .execute((trx) => endSequence(trx, { email: sam.email }, 'purchase'));
    const second = await db()
      .selectFrom('list_subscribers')
      .select(['sequence_ended_at', 'sequence_end_reason'])
      .where('id', '=', sam.id)
      .executeTakeFirstOrThrow();
    expect(second).toEqual(first);
  });
});
