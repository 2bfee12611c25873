import { createContext, useContext } from 'react';
import {
  PUBLIC_CONFIG_ELEMENT_ID,
  publicConfigDefaults,
  type PublicConfig,
} from '../../shared/public-config';
import type { StoreContent } from '../../shared/store/store-content';

const PublicConfigContext = createContext<PublicConfig>(publicConfigDefaults);

export const PublicConfigProvider = PublicConfigContext.Provider;

export function usePublicConfig(): PublicConfig {
  return useContext(PublicConfigContext);
}

/**
 * The settings the server embedded in the page; the defaults where there are none (Vite's
 * development server serves the page without them).
 */
export function readPublicConfig(doc: Document = document): PublicConfig {
  const text = doc.getElementById(PUBLIC_CONFIG_ELEMENT_ID)?.textContent;
  if (!text) return publicConfigDefaults;
  const parsed = JSON.parse(text) as Partial<PublicConfig>;
  return { ...publicConfigDefaults, ...parsed };
}

/** The published store content: every text and price of the offer. */
export function useStoreContent(): StoreContent {
  return useContext(PublicConfigContext).store;
}
