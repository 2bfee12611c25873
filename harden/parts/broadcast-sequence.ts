import { Kysely, PostgresDialect } from 'kysely';
import type pg from 'pg';
import { saveSequence } from '../../bench/lib/broadcast-admin';
import type { RecipientSink } from '../../bench/lib/recipient-sink';
import type { StoreAdmin } from '../../bench/lib/store-admin';
import type { Database } from '../../src/server/db/schema';
import { enqueueDueSteps } from '../../src/server/sequence/sequence-enqueue';
import { webhook } from '../lib/mixed-load';
import type { Instance } from '../lib/instance';
import type { HardenCheck } from '../part';

const STEP_ONE = 'Welcome, and the guide again';
const STEP_TWO = 'Two days in: the offer';
const DELAY_DAYS = 2;

/**
 * The follow-up sequence stops when the webhook's order arrives between two steps: a
 * sequence of two steps (day 0, day 2) switched on through the admin route; new subscribers
 * confirmed now, half of whom buy after the first step. The periodic work's enqueuing (the
 * function every instance's periodic task runs, here called by the harness instead of
 * waiting for its ten-minute timer; twice at once, as two instances may) sends the first step;
 * the buyers' signed checkout.session.completed webhooks go to the instances; then the days
 * pass (their confirmed_at moved back two days) and the enqueuing runs again. Checks, counted
 * at the mail server by subject: everyone got step one once; the readers got step two once;
 * the buyers never got step two, and their sequence ended with the reason purchase.
 */
export async function sequenceStopsAtPurchase(rig: {
  pool: pg.Pool;
  sink: RecipientSink;
  instances: Instance[];
  admin: StoreAdmin;
  limitS: number;
}): Promise<HardenCheck> {
  const { pool, sink } = rig;
  const running = rig.instances.filter((one) => one.current());
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  const people = 10;
  const buyers = Array.from({ length: people }, (_, i) => `seq-buyer-${i}@harden.test`);
  const readers = Array.from({ length: people }, (_, i) => `seq-reader-${i}@harden.test`);
  await pool.query(
    `insert into list_subscribers (email, name, status, source, confirmed_at)
     select e, 'Sequence Reader', 'confirmed', 'free-guide', now() from unnest($1::text[]) as e`,
    [[...buyers, ...readers]],
  );
  await sink.reset();
  await sink.keepSubjects();
  const html = (text: string) => `<p>${text}</p><p><a href="https://example.com/">More</a></p>`;
  await saveSequence(rig.admin, {
    active: true,
    steps: [
      { delayDays: 0, subject: STEP_ONE, html: html('The guide, again.') },
      { delayDays: DELAY_DAYS, subject: STEP_TWO, html: html('The bundle, for you.') },
    ],
  });
  const enqueueTwiceAtOnce = async () =>
    (await Promise.all([enqueueDueSteps(db), enqueueDueSteps(db)])).reduce((a, b) => a + b, 0);
  const firstAdded = await enqueueTwiceAtOnce();
  const all = [...buyers, ...readers];
  await untilSubjects(sink, all, STEP_ONE, rig.limitS);

  const answers = await Promise.all(
    buyers.map((email, i) => webhook(running[i % running.length]!.current()!.url, email)),
  );
  const { rows: paid } = await pool.query<{ n: string }>(
    `select count(*) as n from orders where status = 'paid' and lower(email) = any($1::text[])`,
    [buyers],
  );
  // Two days pass for the new subscribers.
  await pool.query(
    `update list_subscribers set confirmed_at = confirmed_at - make_interval(days => $2::int, mins => 1)
     where lower(email) = any($1::text[])`,
    [all, DELAY_DAYS],
  );
  const secondAdded = await enqueueTwiceAtOnce();
  await untilSubjects(sink, readers, STEP_TWO, rig.limitS);
  // The buyers' second step, had it been enqueued, would go out with the readers'.
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const received = await sink.recipients();
  const got = (email: string, subject: string) =>
    (received.get(email)?.subjects ?? []).filter((s) => s === subject).length;
  const stepOneOnce = all.filter((email) => got(email, STEP_ONE) === 1).length;
  const readersStepTwoOnce = readers.filter((email) => got(email, STEP_TWO) === 1).length;
  const buyersStepTwo = buyers.filter((email) => got(email, STEP_TWO) > 0).length;
  const { rows: ended } = await pool.query<{ n: string }>(
    `select count(*) as n from list_subscribers
     where lower(email) = any($1::text[]) and sequence_end_reason = 'purchase'`,
    [buyers],
  );
  const answered2xx = answers.filter((r) => r.status >= 200 && r.status < 300).length;
  return {
    check:
      "the follow-up sequence stops when the webhook's order arrives between two steps (two enqueuing runs at once each time)",
    result:
      `${all.length} new subscribers, ${firstAdded} first-step rows enqueued, ${stepOneOnce} got step one once; ` +
      `${buyers.length} bought after it (${answered2xx} webhooks answered 2xx, ${paid[0]!.n} orders paid, ` +
      `${ended[0]!.n} sequences ended for purchase); two days later ${secondAdded} second-step rows enqueued: ` +
      `${readersStepTwoOnce} of ${readers.length} readers got step two once, ${buyersStepTwo} buyers got it`,
    ok:
      firstAdded === all.length &&
      stepOneOnce === all.length &&
      answered2xx === buyers.length &&
      Number(paid[0]!.n) === buyers.length &&
      Number(ended[0]!.n) === buyers.length &&
      secondAdded === readers.length &&
      readersStepTwoOnce === readers.length &&
      buyersStepTwo === 0,
    figures: {
      subscribers: all.length,
      first_step_enqueued: firstAdded,
      step_one_once: stepOneOnce,
      buyers: buyers.length,
      webhooks_2xx: answered2xx,
      orders_paid: Number(paid[0]!.n),
      sequences_ended: Number(ended[0]!.n),
      second_step_enqueued: secondAdded,
      readers_step_two_once: readersStepTwoOnce,
      buyers_step_two: buyersStepTwo,
    },
  };
}

/** Until every address in `emails` has a message with `subject` (or `limitS`). */
async function untilSubjects(
  sink: RecipientSink,
  emails: string[],
  subject: string,
  limitS: number,
) {
  const deadline = Date.now() + limitS * 1000;
  for (;;) {
    const received = await sink.recipients();
    const missing = emails.filter((email) => !received.get(email)?.subjects?.includes(subject));
    if (missing.length === 0) return;
    if (Date.now() > deadline)
      throw new Error(
        `${missing.length} of ${emails.length} never got "${subject}" in ${limitS} s`,
      );
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
