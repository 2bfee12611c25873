import { sql, type Kysely, type Selectable } from 'kysely';
import type { AdminCode, CodeTerms } from '../../shared/codes/codes-api';
import type { Database, DiscountCode } from '../db/schema';

export type CodeRow = Selectable<DiscountCode>;

/** A stored code with what the verified orders say of it. */
export type CountedCode = CodeRow & { uses: number; revenue_cents: number };

const iso = (value: Date | null) => (value ? new Date(value).toISOString() : null);

export function termsOf(row: CodeRow): CodeTerms {
  return {
    code: row.code,
    percentOff: row.percent_off,
    amountOffCents: row.amount_off_cents,
    currency: row.currency,
    maxUses: row.max_uses,
    startsAt: iso(row.starts_at),
    endsAt: iso(row.ends_at),
    active: row.active,
  };
}

export function toAdminCode(row: CountedCode): AdminCode {
  return {
    ...termsOf(row),
    uses: Number(row.uses),
    revenueCents: Number(row.revenue_cents),
    stripePromotionCode: row.stripe_promotion_code_id,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

/**
 * The codes with their uses and revenue, counted from the paid orders they explained: one
 * query, `code` alone when given (locked until the transaction ends when `lock`).
 */
export async function countedCodes(
  db: Kysely<Database>,
  options: { code?: string; lock?: boolean } = {},
): Promise<CountedCode[]> {
  const { rows } = await sql<CountedCode>`
    select c.*,
      (select count(*) from orders o
        where o.discount_code = c.code and o.status = 'paid')::int as uses,
      (select coalesce(sum(o.amount_total), 0) from orders o
        where o.discount_code = c.code and o.status = 'paid')::bigint as revenue_cents
    from discount_codes c
    where ${options.code ?? null}::text is null or c.code = ${options.code ?? null}
    order by c.created_at desc, c.id desc
    ${options.lock ? sql`for update of c` : sql``}`.execute(db);
  return rows.map((row) => ({
    ...row,
    uses: Number(row.uses),
    revenue_cents: Number(row.revenue_cents),
  }));
}

/** One code with its uses, or undefined. */
export async function countedCode(
  db: Kysely<Database>,
  code: string,
  lock = false,
): Promise<CountedCode | undefined> {
  return (await countedCodes(db, { code, lock }))[0];
}

/** The code Stripe's promotion code id belongs to (a buyer typed it in Stripe's checkout). */
export async function codeOfPromotion(
  db: Kysely<Database>,
  promotionCodeId: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('discount_codes')
    .select('code')
    .where('stripe_promotion_code_id', '=', promotionCodeId)
    .executeTakeFirst();
  return row?.code;
}
