import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';

/**
 * The admin's tables and columns are named at run time, by the configurations only. Kysely
 * still quotes every identifier and sends every value as a parameter.
 */
export type DynamicDatabase = Record<string, Record<string, unknown>>;

export function dynamicTables(db: Kysely<Database>): Kysely<DynamicDatabase> {
  return db as unknown as Kysely<DynamicDatabase>;
}

/** A row as the driver returns it: Dates, numbers, numeric strings, booleans, text, nulls. */
export type StoredRow = Record<string, unknown>;
