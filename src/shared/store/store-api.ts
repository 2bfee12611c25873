import type { StoreFileSummary } from './files-api';
import type { FormerPriceCheck, PriceRules } from './price-history';
import type { StoreContent } from './store-content';

/**
 * The admin's store content API (DESIGN.md "The offer, edited by the owner"), behind the admin
 * guard; writes need the PUBLIC_URL origin and each is recorded in the activity log. Errors
 * answer `{ error, message }`; a content that does not validate answers 400 with `fields`,
 * each bad field's message by its path ("product.priceCents").
 *
 * - GET  STORE_PATH                               → StoreState
 * - PUT  STORE_PATH { content }                   → StoreState (the draft saved); 413 for a
 *                                                   body over 256 KiB
 * - POST STORE_PUBLISH_PATH                       → 201 { version } (live everywhere within
 *                                                   STORE_REFRESH_MS)
 * - GET  STORE_VERSIONS_PATH?page=N               → StoreVersionPage (newest first, page from 0)
 * - POST storeRestorePath(version)                → 201 { version } (that content as a new
 *                                                   version, and as the draft); 404 for a
 *                                                   version never published
 * - POST STORE_PREVIEW_PATH { content }           → text/html: the home page rendered from
 *                                                   `content`, never cached, never live
 */
export const STORE_PATH = '/api/admin/store';
export const STORE_PUBLISH_PATH = `${STORE_PATH}/publish`;
export const STORE_VERSIONS_PATH = `${STORE_PATH}/versions`;
export const STORE_PREVIEW_PATH = `${STORE_PATH}/preview`;

export function storeRestorePath(version: number): string {
  return `${STORE_VERSIONS_PATH}/${version}/restore`;
}

export type PublishedVersion = { version: number; publishedAt: string; content: StoreContent };

/** The struck-through prices beside the price history (DESIGN.md "Prices and promotions"). */
export type StorePrices = {
  /** PRICE_RULES: what the page does with the former price. */
  rules: PriceRules;
  /** The live version's former price now. */
  live: FormerPriceCheck;
  /** The draft's, as if it were published now. */
  draft: FormerPriceCheck;
};

export type StoreState = {
  draft: StoreContent;
  published: PublishedVersion;
  prices: StorePrices;
  /** Every uploaded file the draft or the live version names, by id. */
  files: Record<string, StoreFileSummary>;
};

export type StoreVersion = { version: number; publishedAt: string; by: string | null };

/** Versions per page of the list. */
export const STORE_VERSIONS_PAGE_SIZE = 20;

export type StoreVersionPage = {
  rows: StoreVersion[];
  count: number;
  page: number;
  pageSize: number;
};

export type StorePublished = { version: number };

/** The longest a published version takes to reach every instance. */
export const STORE_REFRESH_MS = 5_000;
