// A scheduled publish across server processes: two instances on one database, each with its
// own watch; exactly one publishes at the time and both serve the new version within 5 s.
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { eventually } from '../../../tests/support/eventually';
import { useServerProcesses } from '../../../tests/support/server-processes';
import { startSmtpSink } from '../../../tests/support/smtp-sink';
import { describeEachDatabase } from '../../../tests/support/test-database';
import { STORE_REFRESH_MS } from '../../shared/store/store-api';

const processes = useServerProcesses();

describeEachDatabase('a scheduled publish across processes', (use, kind) => {
  // Two processes on one database: the PostgreSQL server (the embedded one is one app's).
  it.runIf(kind === 'postgres')(
    'one process publishes it at its time, and both serve it within 5 s',
    async () => {
      const sink = await startSmtpSink();
      processes.cleanup(() => sink.close());
      const env = {
        ...(await processes.databaseEnv(kind, use())),
        SMTP_URL: sink.url,
        // Each instance says when it starts serving a new version.
        LOG_LEVEL: 'info',
      };
      const { db } = use();
      const servers = await Promise.all([processes.start(env), processes.start(env)]);
      const { rows } = await sql<{ version: number }>`
        select max(version)::int as version from store_versions`.execute(db);
      const next = rows[0]!.version + 1;
      const publishAt = new Date(Date.now() + 3_000);
      await sql`
        insert into store_schedule (content, publish_at, created_by)
        select jsonb_set(content, '{product,priceCents}', '3300'::jsonb), ${publishAt},
          'owner@example.com'
        from store_versions order by version desc limit 1`.execute(db);

      const serving = `"version":${next},"msg":"Serving a new store version"`;
      for (const server of servers) {
        await eventually(
          async () => (server.output().includes(serving) ? true : undefined),
          publishAt.getTime() + STORE_REFRESH_MS - Date.now(),
        );
      }
      expect(Date.now()).toBeLessThan(publishAt.getTime() + STORE_REFRESH_MS);
      // Both keep polling: still one new version, published by one of them.
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      const versions = await sql<{ version: number; price: string; at: Date }>`
        select version, content->'product'->>'priceCents' as price, published_at as at
        from store_versions where version >= ${next}`.execute(db);
      expect(versions.rows.map((row) => [row.version, row.price])).toEqual([[next, '3300']]);
      expect(versions.rows[0]!.at.getTime()).toBeGreaterThanOrEqual(publishAt.getTime() - 50);
      const publishers = servers.filter((server) =>
        server.output().includes('Published a scheduled store version'),
      );
      expect(publishers).toHaveLength(1);
    },
    60_000,
  );
});
