import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { fromNow } from '../mail/delivery-store';
import { newToken, TOKEN_PATTERN, tokenHash } from '../http/tokens';
import type { LinkProblem } from '../../shared/orders/order-api';

export { TOKEN_PATTERN, tokenHash } from '../http/tokens';

export function downloadPath(token: string): string {
  return `/download/${token}`;
}

export type LinkRules = { linkHours: number; downloadLimit: number };

/** A new link's token and its row: the token goes into the email, only its hash into the database. */
export function linkRow(orderId: number, rules: LinkRules) {
  const token = newToken();
  const row = {
    order_id: orderId,
    token_hash: tokenHash(token),
    expires_at: fromNow(rules.linkHours * 3_600_000),
    max_downloads: rules.downloadLimit,
  };
  return { token, row };
}

/** A new link for an order. */
export async function createLink(
  db: Kysely<Database>,
  orderId: number,
  rules: LinkRules,
): Promise<{ token: string; expiresAt: Date }> {
  const { token, row } = linkRow(orderId, rules);
  const { expires_at } = await db
    .insertInto('download_links')
    .values(row)
    .returning('expires_at')
    .executeTakeFirstOrThrow();
  return { token, expiresAt: expires_at };
}

/**
 * Counts one download on a link that may still be used, in one statement (two downloads at
 * the limit cannot both pass). Otherwise says why it cannot be used.
 */
export async function useLink(
  db: Kysely<Database>,
  token: string,
): Promise<{ ok: true; orderId: number } | { ok: false; problem: LinkProblem }> {
  if (!TOKEN_PATTERN.test(token)) return { ok: false, problem: 'invalid' };
  const hash = tokenHash(token);
  const used = await sql<{ order_id: number }>`
    update download_links l set downloads = l.downloads + 1
    from orders o
    where l.token_hash = ${hash} and o.id = l.order_id and o.status = 'paid'
      and o.links_revoked_at is null and l.revoked_at is null
      and l.expires_at > now() and l.downloads < l.max_downloads
    returning l.order_id`.execute(db);
  const orderId = used.rows[0]?.order_id;
  if (orderId !== undefined) return { ok: true, orderId };

  const link = await sql<{ revoked: boolean; expired: boolean; status: string }>`
    select (l.revoked_at is not null or o.links_revoked_at is not null) as revoked,
      l.expires_at <= now() as expired, o.status
    from download_links l join orders o on o.id = l.order_id
    where l.token_hash = ${hash}`.execute(db);
  const row = link.rows[0];
  if (!row) return { ok: false, problem: 'invalid' };
  if (row.revoked || row.status !== 'paid') return { ok: false, problem: 'revoked' };
  return { ok: false, problem: row.expired ? 'expired' : 'used' };
}

/** Closes every open link of the orders; returns how many. */
export async function revokeLinks(db: Kysely<Database>, orderIds: number[]): Promise<number> {
  if (orderIds.length === 0) return 0;
  const result = await db
    .updateTable('download_links')
    .set({ revoked_at: sql`now()` })
    .where('order_id', 'in', orderIds)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
