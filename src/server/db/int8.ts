/**
 * bigint columns and count(*) arrive from node-postgres as strings.
 * They are parsed here, so the app sees plain numbers.
 */
export function parseInt8(text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value)) {
    throw new RangeError(`The database returned ${text}, beyond JavaScript's safe integers.`);
  }
  return value;
}

export const INT8_OID = 20;
