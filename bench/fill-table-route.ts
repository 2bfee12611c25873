import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';

const BATCH = 100_000;

/** Each generated row's address is `before`, the row's number, then `after`. */
type FillBody = { rows: number; addresses?: { before: string; after: string } };

/**
 * POST /__bench/fill { rows, addresses? }: grows form_submissions to `rows` rows with
 * generated submissions (in batches, so the server's memory stays flat), then refreshes the
 * planner's statistics and the visibility map as autovacuum would on a table that size.
 */
export async function fillTableRoute(app: FastifyInstance) {
  app.post<{ Body: FillBody }>('/__bench/fill', async (request) => {
    const { db } = app.database;
    const target = request.body.rows;
    const { before, after } = request.body.addresses ?? {
      before: 'visitor-',
      after: '@example.com',
    };
    const { rows } = await sql<{
      n: number | string;
    }>`select count(*) as n from form_submissions`.execute(db);
    let count = Number(rows[0]!.n);
    while (count < target) {
      const size = Math.min(BATCH, target - count);
      await sql`
        insert into form_submissions
          (name, email, message, purchase_intent, email_sent, email_sent_at, created_at, updated_at)
        select 'Visitor ' || g, ${before}::text || g || ${after}::text,
               'I would like to know more about the bundle.', g % 2 = 0, true, now(), now(), now()
        from generate_series(${count + 1}::int, ${count + size}::int) as g`.execute(db);
      count += size;
    }
    await sql`vacuum analyze form_submissions`.execute(db);
    return { rows: count };
  });
}
