import { createContext, useContext } from 'react';
import { PUBLIC_CONFIG_ELEMENT_ID, type PublicConfig } from '../../shared/public-config';
import type { Offer } from '../../shared/store/offer';
import type { StoreContent } from '../../shared/store/store-content';

const PublicConfigContext = createContext<PublicConfig | null>(null);

export const PublicConfigProvider = PublicConfigContext.Provider;

export function usePublicConfig(): PublicConfig {
  const config = useContext(PublicConfigContext);
  if (!config) throw new Error('The public pages render inside a PublicConfigProvider.');
  return config;
}

/**
 * The settings and content the server embedded in the page; undefined where there are none
 * (Vite's development server serves the page without them).
 */
export function readPublicConfig(doc: Document = document): PublicConfig | undefined {
  const text = doc.getElementById(PUBLIC_CONFIG_ELEMENT_ID)?.textContent;
  return text ? (JSON.parse(text) as PublicConfig) : undefined;
}

/** The published store content: every text and price of the offer. */
export function useStoreContent(): StoreContent {
  return usePublicConfig().store;
}

/** The published product's prices as the page writes them (computed by the server). */
export function useOffer(): Offer {
  return usePublicConfig().offer;
}
