import type { StoreContent } from '../../shared/store/store-content';

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function merged(stored: unknown, seed: unknown): unknown {
  if (!isObject(stored) || !isObject(seed)) return stored === undefined ? seed : stored;
  // In the seed's key order (jsonb keeps its own), then any key the seed does not have.
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(seed)) result[key] = merged(stored[key], value);
  for (const [key, value] of Object.entries(stored)) {
    if (!Object.hasOwn(result, key)) {
      // defineProperty: a stored "__proto__" stays a key instead of becoming the prototype.
      Object.defineProperty(result, key, {
        value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
  }
  return result;
}

/**
 * A stored document with every key the schema has gained since it was saved taken from the
 * seed: versions are kept whole, so one published before a new text existed reads with the
 * seed's text there. What the document has is kept, lists and texts whole, with its keys in
 * the seed's order, as the page embeds it.
 */
export function completeContent(stored: unknown, seed: StoreContent): StoreContent {
  return merged(stored, seed) as StoreContent;
}
