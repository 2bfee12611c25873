import type { FastifyPluginAsync } from 'fastify';
import { sql } from 'kysely';
import type Stripe from 'stripe';
import * as z from 'zod/mini';
import {
  CODES_PATH,
  codeBodySchema,
  codeField,
  type AdminCode,
  type CodeBody,
  type CodeList,
} from '../../shared/codes/codes-api';
import { audited } from '../admin/audit/audit-log';
import { HttpError } from '../http/errors';
import { parsedOr400 } from '../http/input';
import { stripeClient } from '../stripe/stripe-api';
import { countedCode, countedCodes, toAdminCode, type CountedCode } from './code-store';
import { syncCode } from './stripe-codes';

const PREFIX = CODES_PATH.replace('/api/admin', '');
const codeParam = z.object({ code: codeField });

/** The stored columns of a body; an amount off is in the live product's currency. */
function columnsOf(body: CodeBody, currency: string) {
  return {
    percent_off: body.percentOff ?? null,
    amount_off_cents: body.amountOffCents ?? null,
    currency: body.amountOffCents === undefined ? null : currency.toLowerCase(),
    max_uses: body.maxUses ?? null,
    starts_at: body.startsAt ? new Date(body.startsAt) : null,
    ends_at: body.endsAt ? new Date(body.endsAt) : null,
    active: body.active,
  };
}

/**
 * Discount codes (shared/codes/codes-api.ts), inside the guarded /api/admin scope. With
 * STRIPE_SECRET_KEY each save brings Stripe's coupon and promotion code in line in the same
 * transaction: when Stripe fails, nothing is kept and the owner is told (a retry is safe: the
 * creates carry Idempotency-Keys).
 */
export const codeAdminRoutes: FastifyPluginAsync = async (scope) => {
  const { db } = scope.database;
  const stripe: Stripe | undefined = scope.config.stripe && stripeClient(scope.config.stripe);

  async function synced(
    trx: typeof db,
    row: CountedCode,
    log: { error(o: object, m: string): void },
  ) {
    if (!stripe) return row;
    let ids;
    try {
      ids = await syncCode(stripe, row, row.uses);
    } catch (error) {
      log.error({ err: error, code: row.code }, 'Could not bring the discount code to Stripe');
      throw new HttpError(
        502,
        'Stripe could not be reached, so the code was not saved. Please try again in a moment.',
      );
    }
    await trx.updateTable('discount_codes').set(ids).where('id', '=', row.id).execute();
    return { ...row, ...ids };
  }

  scope.get(PREFIX, async (): Promise<CodeList> => {
    return { rows: (await countedCodes(db)).map(toAdminCode) };
  });

  scope.post(PREFIX, { bodyLimit: 4096 }, async (request, reply) => {
    const body = parsedOr400(codeBodySchema, request.body);
    const currency = scope.store.published().content.product.currency;
    const code = await db.transaction().execute(async (trx) => {
      const inserted = await audited(
        trx,
        {
          adminEmail: request.admin!.email,
          action: 'create',
          tableName: 'discount_codes',
          rowIds: (row) => [Number(row.id)],
        },
        () =>
          trx
            .insertInto('discount_codes')
            .values({ code: body.code, ...columnsOf(body, currency) })
            .onConflict((conflict) => conflict.column('code').doNothing())
            .returning('id')
            .executeTakeFirst(),
      );
      if (!inserted) throw new HttpError(409, `There is already a code ${body.code}.`);
      const row = (await countedCode(trx, body.code, true))!;
      return toAdminCode(await synced(trx, row, request.log));
    });
    return reply.code(201).send(code);
  });

  scope.put(`${PREFIX}/:code`, { bodyLimit: 4096 }, async (request): Promise<AdminCode> => {
    const { code } = parsedOr400(codeParam, request.params);
    const body = parsedOr400(codeBodySchema, request.body);
    if (body.code !== code) {
      throw new HttpError(400, `The body's code must be ${code}: a code is not renamed.`);
    }
    const currency = scope.store.published().content.product.currency;
    return db.transaction().execute(async (trx) => {
      const existing = await countedCode(trx, code, true);
      if (!existing) throw new HttpError(404, `There is no code ${code}.`);
      await audited(
        trx,
        {
          adminEmail: request.admin!.email,
          action: 'update',
          tableName: 'discount_codes',
          rowIds: [Number(existing.id)],
          keepBefore: true,
        },
        () =>
          trx
            .updateTable('discount_codes')
            .set({ ...columnsOf(body, currency), updated_at: sql`now()` })
            .where('id', '=', existing.id)
            .returning('id')
            .executeTakeFirst(),
      );
      const row = (await countedCode(trx, code))!;
      return toAdminCode(await synced(trx, row, request.log));
    });
  });
};
