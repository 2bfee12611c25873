// A broadcast across server processes: SIGTERM in the middle, another instance finishes it.
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { eventually } from '../../../tests/support/eventually';
import { useServerProcesses } from '../../../tests/support/server-processes';
import { startSmtpSink } from '../../../tests/support/smtp-sink';
import { describeEachDatabase } from '../../../tests/support/test-database';

const processes = useServerProcesses();

describeEachDatabase('broadcast across processes', (use, kind) => {
  // Two processes on one database: the PostgreSQL server (the embedded one is one app's).
  it.runIf(kind === 'postgres')(
    'sends nobody twice when the sending instance is stopped with SIGTERM and another finishes',
    async () => {
      const sink = await startSmtpSink();
      processes.cleanup(() => sink.close());
      sink.delayEach(100);
      const env = {
        ...(await processes.databaseEnv(kind, use())),
        SMTP_URL: sink.url,
        MAIL_TIMEOUT_MS: '2000',
        MAIL_RATE_PER_SECOND: '1000',
      };
      const { db } = use();
      const first = await processes.start(env);
      // The sender's footer, published after the first version was seeded at start.
      await sql`
      insert into store_versions (version, content)
      select version + 1, jsonb_set(content, '{sender}',
        '{"name": "Maya Stone", "postalAddress": "12 Garden Lane"}'::jsonb)
      from store_versions order by version desc limit 1`.execute(db);
      const { rows } = await sql<{ id: number }>`
      insert into list_subscribers (email, name, status, source, confirmed_at)
      select 'term' || g || '@example.com', 'Name ' || g, 'confirmed', 'import', now()
      from generate_series(1, 60) g returning id`.execute(db);
      const broadcast = await db
        .insertInto('broadcasts')
        .values({
          slug: 'sigterm',
          subject: 'Through a restart',
          html: '<p>Hello</p>',
          status: 'sending',
          started_at: new Date(),
          audience_done_at: new Date(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const id = Number(broadcast.id);
      await db
        .insertInto('broadcast_recipients')
        .values(rows.map((row) => ({ broadcast_id: id, subscriber_id: Number(row.id) })))
        .execute();

      await eventually(async () => (sink.messages.length >= 5 ? true : undefined), 20_000);
      await first.stop();
      expect(first.child.exitCode).toBe(0);
      const atStop = sink.messages.length;
      expect(atStop).toBeLessThan(60);
      const held = await sql<{ sent: number; locked: number }>`
      select count(*) filter (where status = 'sent')::int as sent,
        count(*) filter (where status = 'pending' and locked_until is not null)::int as locked
      from broadcast_recipients where broadcast_id = ${id}`.execute(db);
      // Every message it sent is recorded; every claim it did not send is handed back.
      expect(held.rows[0]).toEqual({ sent: atStop, locked: 0 });

      const second = await processes.start(env);
      await eventually(async () => {
        const left = await sql<{ n: number }>`
        select count(*)::int as n from broadcast_recipients
        where broadcast_id = ${id} and status = 'pending'`.execute(db);
        return left.rows[0]!.n === 0 ? true : undefined;
      }, 30_000);
      await second.stop();
      const addresses = sink.messages.flatMap((mail) => mail.envelopeTo);
      expect(addresses).toHaveLength(60);
      expect(new Set(addresses).size).toBe(60);
    },
    120_000,
  );
});
