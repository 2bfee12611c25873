import { useSyncExternalStore } from 'react';
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

let prerenderText: string | undefined;

/**
 * While the build prerenders, the text the server replaces with the year (undefined after).
 * Not a React context: the build renders in the same realm as tests that hydrate, and an
 * async prerender left a context's value behind for them.
 */
export function setPrerenderYear(text: string | undefined): void {
  prerenderText = text;
}

/** The current year; during hydration the year the HTML was served with, so they match. */
export function useCopyrightYear(): number | string {
  return useSyncExternalStore(subscribe, clockYear, () => prerenderText ?? servedYear());
}
