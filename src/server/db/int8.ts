/**
 * bigint columns and count(*) arrive as strings from node-postgres and as BigInt from PGlite.
 * Both drivers parse them here, so the app sees plain numbers on either database.
 */
export function parseInt8(text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value)) {
    throw new RangeError(`The database returned ${text}, beyond JavaScript's safe integers.`);
  }
  return value;
}

export const INT8_OID = 20;
