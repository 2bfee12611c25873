import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { newToken, tokenHash } from '../src/server/http/tokens';

const BATCH = 100_000;

/**
 * Routes of the list part only:
 * - POST /__bench/list/tokens { count, purpose }: `count` new subscribers (pending for
 *   `confirm`, confirmed for `unsubscribe`), each with one link of that purpose; answers the
 *   links' tokens, as the emails would carry them.
 * - POST /__bench/list/fill { rows }: adds confirmed subscribers named `Bulk N` at
 *   `bulkN@scale.test` until `rows` of them exist (beside the links' and the import's) (names sharing the address's letters), then refreshes
 *   the planner's statistics.
 */
export async function listBenchRoutes(app: FastifyInstance) {
  app.post<{ Body: { count: number; purpose: 'confirm' | 'unsubscribe' } }>(
    '/__bench/list/tokens',
    async (request) => {
      const { db } = app.database;
      const { count, purpose } = request.body;
      const tokens = Array.from({ length: count }, newToken);
      const run = `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
      const status = purpose === 'confirm' ? 'pending' : 'confirmed';
      await sql`
        with added as (
          insert into list_subscribers (email, name, status, source)
          select 'bench-' || ${purpose}::text || '-' || ${run}::text || '-' || i || '@example.com', '', ${status}::text, 'free-guide'
          from unnest(${sql.val(tokens.map((_, i) => i))}::int[]) as i
          returning id, email
        )
        insert into list_tokens (token_hash, subscriber_id, purpose)
        select h.hash, added.id, ${purpose}
        from added
        join unnest(${sql.val(tokens.map(tokenHash))}::text[]) with ordinality as h(hash, n)
          on added.email = 'bench-' || ${purpose}::text || '-' || ${run}::text || '-' || (h.n - 1) || '@example.com'`.execute(
        db,
      );
      return { tokens };
    },
  );

  app.post<{ Body: { rows: number } }>('/__bench/list/fill', async (request) => {
    const { db } = app.database;
    const target = request.body.rows;
    const { rows } = await sql<{
      n: number | string;
    }>`select count(*) as n from list_subscribers where source = 'import' and email like 'bulk%@scale.test'`.execute(
      db,
    );
    let count = Number(rows[0]!.n);
    while (count < target) {
      const size = Math.min(BATCH, target - count);
      await sql`
        insert into list_subscribers (email, name, status, source, confirmed_at)
        select 'bulk' || g || '@scale.test', 'Bulk ' || g, 'confirmed', 'import', now()
        from generate_series(${count + 1}::int, ${count + size}::int) as g`.execute(db);
      count += size;
    }
    await sql`vacuum analyze list_subscribers`.execute(db);
    return { rows: count };
  });
}
