import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { sql, type Kysely } from 'kysely';
import * as z from 'zod/mini';
import {
  ORDERS_PAGE_SIZE,
  orderNotesSchema,
  orderStatuses,
  type AdminOrder,
  type OrderPage,
} from '../../shared/orders/order-api';
import { audited } from '../admin/audit/audit-log';
import type { Database } from '../db/schema';
import { HttpError } from '../http/errors';
import { idParam, pageField, parsedOr400 } from '../http/input';
import { endSequence } from '../sequence/sequence-end';
import { revokeLinks } from './download-links';
import { sendLink, type OrderRow } from './fulfilment';

const listQuery = z.object({
  page: pageField,
  status: z._default(z.enum(['all', ...orderStatuses]), 'all'),
  q: z._default(z.string().check(z.trim(), z.maxLength(200)), ''),
});

type ListedOrder = OrderRow & { downloads: number; active_links: number };

function toAdminOrder(row: ListedOrder): AdminOrder {
  const iso = (value: Date | null) => (value ? value.toISOString() : null);
  return {
    id: row.id,
    provider: row.provider,
    sessionId: row.session_id,
    paymentIntent: row.payment_intent,
    email: row.email,
    name: row.name,
    amountTotal: row.amount_total,
    currency: row.currency,
    status: row.status,
    paidAt: iso(row.paid_at),
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    notes: row.notes,
    downloads: Number(row.downloads),
    activeLinks: Number(row.active_links),
    linksRevokedAt: iso(row.links_revoked_at),
  };
}

/** Orders with what their links add up to: downloads made and links still usable. */
function listed(db: Kysely<Database>) {
  return db
    .selectFrom('orders')
    .selectAll('orders')
    .select((eb) => [
      eb
        .selectFrom('download_links')
        .select(sql<number>`coalesce(sum(downloads), 0)`.as('n'))
        .whereRef('download_links.order_id', '=', 'orders.id')
        .as('downloads'),
      eb
        .selectFrom('download_links')
        .select(sql<number>`count(*)`.as('n'))
        .whereRef('download_links.order_id', '=', 'orders.id')
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', sql<Date>`now()`)
        .where(sql<boolean>`downloads < max_downloads`)
        .as('active_links'),
    ]);
}

async function listedOrder(db: Kysely<Database>, id: number): Promise<AdminOrder> {
  const row = await listed(db).where('orders.id', '=', id).executeTakeFirst();
  if (!row) throw new HttpError(404, `There is no order ${id}.`);
  return toAdminOrder(row as ListedOrder);
}

/** The admin's Orders panel: read-only but for notes, with resend-link and revoke. */
export const adminOrderRoutes: FastifyPluginAsync = async (scope) => {
  const { db } = scope.database;

  /** One audited change of an order, in a transaction; 404 when there is no such order. */
  async function changeOrder(
    request: FastifyRequest,
    id: number,
    action: 'update' | 'revoke',
    change: (trx: Kysely<Database>) => Promise<void>,
  ): Promise<{ order: AdminOrder }> {
    const changed = await db.transaction().execute((trx) =>
      audited(
        trx,
        {
          adminEmail: request.admin!.email,
          action,
          tableName: 'orders',
          rowIds: [id],
          keepBefore: true,
        },
        async () => {
          await change(trx);
          return true;
        },
      ),
    );
    if (!changed) throw new HttpError(404, `There is no order ${id}.`);
    return { order: await listedOrder(db, id) };
  }

  scope.get('/orders', async (request): Promise<OrderPage> => {
    const { page, status, q } = parsedOr400(listQuery, request.query, 'Invalid filter');
    let query = listed(db);
    let count = db.selectFrom('orders').select(sql<number>`count(*)`.as('count'));
    if (status !== 'all') {
      query = query.where('orders.status', '=', status);
      count = count.where('orders.status', '=', status);
    }
    if (q) {
      const pattern = `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      const matches = sql<boolean>`(lower(orders.email) like ${pattern} or lower(coalesce(orders.name, '')) like ${pattern} or orders.session_id = ${q} or orders.payment_intent = ${q})`;
      query = query.where(matches);
      count = count.where(matches);
    }
    const [rows, total] = await Promise.all([
      query
        .orderBy('orders.id', 'desc')
        .limit(ORDERS_PAGE_SIZE)
        .offset(page * ORDERS_PAGE_SIZE)
        .execute(),
      count.executeTakeFirstOrThrow(),
    ]);
    return {
      orders: (rows as ListedOrder[]).map(toAdminOrder),
      count: Number(total.count),
      page,
      pageSize: ORDERS_PAGE_SIZE,
    };
  });

  scope.put('/orders/:id', async (request) => {
    const { id } = parsedOr400(idParam, request.params, 'Invalid order id');
    const { notes } = parsedOr400(orderNotesSchema, request.body, 'Invalid notes');
    return changeOrder(request, id, 'update', async (trx) => {
      await trx
        .updateTable('orders')
        .set({ notes, updated_at: sql`now()` })
        .where('id', '=', id)
        .execute();
    });
  });

  // The owner sends a link: to a paid order (reopening downloads they had revoked), or to one
  // held for review, which the owner has checked and so becomes paid.
  scope.post('/orders/:id/resend-link', async (request, reply) => {
    const { id } = parsedOr400(idParam, request.params, 'Invalid order id');
    const audit = {
      adminEmail: request.admin!.email,
      action: 'resend' as const,
      tableName: 'orders',
      rowIds: [id],
    };
    await db.transaction().execute((trx) =>
      audited(trx, audit, async () => {
        const order = await trx
          .selectFrom('orders')
          .selectAll()
          .where('id', '=', id)
          .forUpdate()
          .executeTakeFirst();
        if (!order) throw new HttpError(404, `There is no order ${id}.`);
        if (order.status !== 'paid' && order.status !== 'review') {
          throw new HttpError(
            409,
            `Order ${id} is ${order.status}: only a paid order gets a link.`,
          );
        }
        const updated = await trx
          .updateTable('orders')
          .set({ status: 'paid', links_revoked_at: null, updated_at: sql`now()` })
          .where('id', '=', id)
          .returningAll()
          .executeTakeFirstOrThrow();
        // The owner's check makes a held order a verified paid one: the buyer's sequence ends.
        if (order.status === 'review') await endSequence(trx, { email: updated.email }, 'purchase');
        await sendLink(
          trx,
          { ...scope.config, store: scope.store },
          updated,
          order.status === 'review' ? 'receipt' : 'new-link',
        );
        return updated;
      }),
    );
    scope.deliveryWorker.wake();
    return reply.code(201).send({ order: await listedOrder(db, id) });
  });

  scope.post('/orders/:id/revoke', async (request) => {
    const { id } = parsedOr400(idParam, request.params, 'Invalid order id');
    return changeOrder(request, id, 'revoke', async (trx) => {
      await trx
        .updateTable('orders')
        .set({ links_revoked_at: sql`now()`, updated_at: sql`now()` })
        .where('id', '=', id)
        .execute();
      await revokeLinks(trx, [id]);
    });
  });
};
