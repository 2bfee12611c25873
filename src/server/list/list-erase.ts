import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema';

/** What an erased address leaves: the SHA-256 of its lower-cased form, nothing readable. */
export function suppressionHash(email: string): string {
  return createHash('sha256').update(email.trim().toLowerCase()).digest('hex');
}

/**
 * Before the People tool deletes an address's subscriber row (in its transaction): an
 * anonymous erased-marker event (it outlives the row, with no subscriber), so the consent
 * history shows an erasure rather than a gap, and the address's suppression hash, so an
 * import does not add it back by accident.
 */
export async function markErasedSubscriber(trx: Kysely<Database>, email: string): Promise<void> {
  const subscriber = await trx
    .selectFrom('list_subscribers')
    .select('id')
    .where(sql<string>`lower(email)`, '=', email.trim().toLowerCase())
    .executeTakeFirst();
  if (!subscriber) return;
  await trx
    .insertInto('list_consent_events')
    .values({ subscriber_id: null, kind: 'erased-marker', source: 'people erase' })
    .execute();
  await trx
    .insertInto('list_suppressions')
    .values({ email_hash: suppressionHash(email) })
    .onConflict((conflict) => conflict.column('email_hash').doNothing())
    .execute();
}
