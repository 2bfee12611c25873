/**
 * Constants of the offer that are not yet store content (SPEC.md §1 and §9). Prices are the
 * store content's only (src/shared/store/store-content.ts).
 */
export const product = {
  name: 'Soul Reset Bundle',
  policiesLastUpdated: 'May 15, 2025',
} as const;
