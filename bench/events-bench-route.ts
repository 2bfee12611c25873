import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';

/**
 * GET /__bench/insight-events: how many events the events route stored and from how many
 * visitors, so the events part checks every answered event in the app's database.
 */
export async function eventsBenchRoute(app: FastifyInstance) {
  app.get('/__bench/insight-events', async () => {
    const { rows } = await sql<{ events: string | number; visitors: string | number }>`
      select count(*) as events, count(distinct visitor) as visitors
      from insight_events`.execute(app.database.db);
    return { events: Number(rows[0]!.events), visitors: Number(rows[0]!.visitors) };
  });
}
