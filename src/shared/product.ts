/** Business constants of the offer (SPEC.md §1 and §9). */
export const product = {
  name: 'Soul Reset Bundle',
  priceUsd: 27,
  formerPriceUsd: 89,
  discountPercent: 70,
  savingsUsd: 62,
  policiesLastUpdated: 'May 15, 2025',
} as const;
