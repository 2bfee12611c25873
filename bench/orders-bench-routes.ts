import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { createLink } from '../src/server/orders/download-links';

/** One order as the orders bench checks it: how many links and emails it got. */
export type OrderTally = { session_id: string; links: number; emails: number };

/**
 * Bench-only routes for the orders part:
 * - GET /__bench/orders: every order with its link and email counts, and the number of
 *   checkout events the webhook recorded, so the bench checks fulfilment in the app's database.
 * - POST /__bench/download-links { count }: a paid order and `count` links to it (the real
 *   createLink, so the tokens are hashed and limited as the webhook's are).
 * - GET /__bench/static/*: BENCH_STATIC_DIR served by @fastify/static, the floor a download
 *   is compared to.
 */
export async function ordersBenchRoutes(app: FastifyInstance) {
  const { db } = app.database;

  app.get('/__bench/orders', async () => {
    const { rows } = await sql<{
      session_id: string;
      links: string | number;
      emails: string | number;
    }>`
      select o.session_id,
        (select count(*) from download_links l where l.order_id = o.id) as links,
        (select count(*) from mail_deliveries d
          where d.source_table = 'orders' and d.source_id = o.id) as emails
      from orders o`.execute(db);
    const events = await db
      .selectFrom('payment_events')
      .select(({ fn }) => fn.countAll<string | number>().as('n'))
      .where('type', '=', 'checkout.session.completed')
      .executeTakeFirstOrThrow();
    const orders: OrderTally[] = rows.map((row) => ({
      session_id: row.session_id,
      links: Number(row.links),
      emails: Number(row.emails),
    }));
    return { orders, events: Number(events.n) };
  });

  app.post<{ Body: { count: number } }>('/__bench/download-links', async (request) => {
    const { priceCents, currency } = app.config.product;
    const order = await db
      .insertInto('orders')
      .values({
        session_id: `cs_bench_downloads_${Date.now()}`,
        payment_intent: null,
        email: 'bench-buyer@example.com',
        name: 'Bench Buyer',
        amount_total: priceCents,
        currency,
        status: 'paid',
        paid_at: new Date(),
        links_revoked_at: null,
        updated_at: new Date(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const tokens: string[] = [];
    for (let i = 0; i < request.body.count; i += 1) {
      tokens.push((await createLink(db, order.id, app.config.product)).token);
    }
    return { tokens };
  });

  const staticDir = process.env.BENCH_STATIC_DIR;
  if (staticDir) {
    await app.register(fastifyStatic, {
      root: staticDir,
      prefix: '/__bench/static/',
      decorateReply: false,
    });
  }
}
