/**
 * The shop's name as the emails and a few fixed messages write it (SPEC.md §1). Everything
 * the public pages show, the product's name included, is store content
 * (src/shared/store/store-content.ts).
 */
export const product = {
  name: 'Soul Reset Bundle',
} as const;
