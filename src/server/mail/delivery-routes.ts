import type { FastifyPluginAsync } from 'fastify';
import * as z from 'zod/mini';
import {
  deliveryFilters,
  type DeliveryPage,
  type RecordDeliveries,
  type ResentDelivery,
} from '../../shared/mail/delivery-api';
import { tableNames } from '../../shared/tables';
import { HttpError } from '../http/errors';
import { idParam, pageField, parsedOr400 } from '../http/input';
import { audited } from '../admin/audit/audit-log';
import { latestForRecords, listDeliveries, resend } from './delivery-log';

const deliveryQuerySchema = z.object({
  state: z._default(z.enum(deliveryFilters), 'all'),
  page: pageField,
});

const idsSchema = z.object({
  ids: z.pipe(
    z
      .string()
      .check(
        z.regex(
          /^[1-9]\d{0,15}(,[1-9]\d{0,15}){0,199}$/,
          'ids must be up to 200 record ids, comma-separated',
        ),
      ),
    z.transform((value) => value.split(',').map(Number)),
  ),
});

/** The admin's delivery log and resend action (shared/mail/delivery-api.ts). */
export const deliveryRoutes: FastifyPluginAsync = async (scope) => {
  const db = scope.database.db;

  scope.get('/deliveries', async (request): Promise<DeliveryPage> => {
    const { state, page } = parsedOr400(deliveryQuerySchema, request.query, 'Invalid filter');
    return listDeliveries(db, state, page);
  });

  scope.get<{ Params: { table: string } }>(
    '/deliveries/records/:table',
    async (request): Promise<RecordDeliveries> => {
      const { table } = request.params;
      if (!(tableNames as readonly string[]).includes(table)) {
        throw new HttpError(404, 'There is no such table.');
      }
      const { ids } = parsedOr400(idsSchema, request.query, 'Invalid record list');
      return { deliveries: await latestForRecords(db, table, ids) };
    },
  );

  scope.post('/deliveries/:id/resend', async (request, reply) => {
    const { id } = parsedOr400(idParam, request.params, 'Invalid delivery id');
    const delivery = await db.transaction().execute((trx) =>
      audited(
        trx,
        {
          adminEmail: request.admin!.email,
          action: 'resend',
          tableName: 'mail_deliveries',
          rowIds: (entry) => [entry.id],
        },
        () => resend(trx, id),
      ),
    );
    if (!delivery) throw new HttpError(404, `There is no delivery ${id}.`);
    scope.deliveryWorker.wake();
    const answer: ResentDelivery = { delivery };
    return reply.code(201).send(answer);
  });
};
