import { createContext, useContext, useSyncExternalStore } from 'react';
import { SERVED_YEAR_KEY } from '../../shared/copyright-year';
import { PUBLIC_CONFIG_ELEMENT_ID } from '../../shared/public-config';

// The year changes too rarely to watch: a page open across New Year shows the new year on its
// next render.
const subscribe = () => () => {};
const clockYear = () => new Date().getFullYear();

/** The year the served HTML shows: the one the server embedded, else this clock's year. */
function servedYear(): number {
  const text = document.getElementById(PUBLIC_CONFIG_ELEMENT_ID)?.textContent;
  const year = text ? (JSON.parse(text) as Record<string, unknown>)[SERVED_YEAR_KEY] : undefined;
  return typeof year === 'number' ? year : clockYear();
}

const PrerenderYearContext = createContext<string | undefined>(undefined);

/** Set while prerendering at build time: the text the server replaces with the year. */
export const PrerenderYearProvider = PrerenderYearContext.Provider;

/** The current year; during hydration the year the HTML was served with, so they match. */
export function useCopyrightYear(): number | string {
  const prerender = useContext(PrerenderYearContext);
  return useSyncExternalStore(subscribe, clockYear, () => prerender ?? servedYear());
}
