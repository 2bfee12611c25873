import { createHmac, randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { addDays, dayStart } from '../../shared/utc-days';
import type { Database } from '../db/schema';

/**
 * Who sent an event, as far as counting needs: the HMAC of the address and user agent under
 * the day's random salt, so one browser is one visitor for one day and no other. The salt is
 * shared by every instance through insight_salts (the first to need it creates it) and kept
 * here only for its day.
 */
export function dailyVisitor(db: Kysely<Database>) {
  let current: { day: string; salt: Buffer } | undefined;

  async function saltOf(day: string): Promise<Buffer> {
    if (current?.day === day) return current.salt;
    await sql`
      insert into insight_salts (day, salt) values (${day}, ${randomBytes(32)})
      on conflict (day) do nothing`.execute(db);
    const row = await sql<{ salt: Buffer | Uint8Array }>`
      select salt from insight_salts where day = ${day}`.execute(db);
    const stored = row.rows[0]?.salt;
    if (!stored) throw new Error(`No insight salt for ${day}`);
    const salt = Buffer.from(stored);
    current = { day, salt };
    // Not kept in memory past its day either, even by an instance that sees no more events.
    const dayEnds = dayStart(addDays(day, 1)) - Date.now();
    setTimeout(
      () => {
        if (current?.salt === salt) current = undefined;
      },
      Math.max(0, dayEnds),
    ).unref();
    return salt;
  }

  return async function visitorOf(day: string, address: string, userAgent: string) {
    const salt = await saltOf(day);
    return createHmac('sha256', salt).update(`${address}\n${userAgent}`).digest('hex').slice(0, 32);
  };
}
