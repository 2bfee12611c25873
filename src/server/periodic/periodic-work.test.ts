import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../../tests/support/test-database';
import { housekeeping } from './housekeeping';
import { runExclusively } from './periodic-work';

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);

describeEachDatabase('periodic work', (use, kind) => {
  it('deletes expired sign-in codes, old throttle windows and stale request counters only', async () => {
    const { db } = use();
    await sql`insert into auth_verification (id, identifier, value, "expiresAt") values
      ('expired', 'sign-in-otp-a@example.com', 'h1', ${minutesAgo(1)}),
      ('current', 'sign-in-otp-b@example.com', 'h2', ${minutesAgo(-5)})`.execute(db);
    await sql`insert into auth_send_throttle (key, window_started_at, count) values
      ('email:old', ${minutesAgo(60)}, 3), ('email:new', ${minutesAgo(1)}, 1)`.execute(db);
    await sql`insert into auth_rate_limit (id, key, count, "lastRequest") values
      ('1', 'old', 1, ${Date.now() - 2 * 86_400_000}), ('2', 'new', 1, ${Date.now()})`.execute(db);

    expect(await runExclusively(db, 0, housekeeping.run)).toBe(true);

    const left = await sql<{ id: string }>`
      select id from auth_verification union all select key from auth_send_throttle
      union all select key from auth_rate_limit order by 1`.execute(db);
    expect(left.rows.map((row) => row.id)).toEqual(['current', 'email:new', 'new']);
  });

  it('deletes download links a month past their expiry and payment events after 90 days', async () => {
    const { db } = use();
    const days = (count: number) => minutesAgo(count * 24 * 60);
    const { id } = await db
      .insertInto('orders')
      .values({ session_id: 'cs_test_housekeeping', status: 'paid' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('download_links')
      .values([
        { order_id: id, token_hash: 'long-gone', expires_at: days(31), max_downloads: 5 },
        { order_id: id, token_hash: 'recently-expired', expires_at: days(29), max_downloads: 5 },
        { order_id: id, token_hash: 'open', expires_at: days(-1), max_downloads: 5 },
      ])
      .execute();
    await sql`insert into payment_events (event_id, type, received_at) values
      ('evt_old', 'charge.refunded', ${days(91)}),
      ('evt_new', 'charge.refunded', ${days(89)})`.execute(db);

    expect(await runExclusively(db, 0, housekeeping.run)).toBe(true);

    const links = await db
      .selectFrom('download_links')
      .select('token_hash')
      .orderBy('token_hash')
      .execute();
    expect(links.map((link) => link.token_hash)).toEqual(['open', 'recently-expired']);
    const events = await db.selectFrom('payment_events').select('event_id').execute();
    expect(events.map((event) => event.event_id)).toEqual(['evt_new']);
  });

  if (kind === 'postgres') {
    it('lets one instance run a task at a time: the other skips it while the lock is held', async () => {
      const { db } = use();
      let release!: () => void;
      let entered!: () => void;
      const inside = new Promise<void>((resolve) => (entered = resolve));
      const first = runExclusively(db, 7, async () => {
        entered();
        await new Promise<void>((resolve) => (release = resolve));
      });
      await inside;
      let ran = false;
      expect(await runExclusively(db, 7, async () => void (ran = true))).toBe(false);
      expect(ran).toBe(false);
      release();
      expect(await first).toBe(true);
      expect(await runExclusively(db, 7, async () => void (ran = true))).toBe(true);
      expect(ran).toBe(true);
    });
  }
});
