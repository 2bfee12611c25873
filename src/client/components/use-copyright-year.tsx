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

let renderedYear: number | undefined;

/**
 * While the server renders a page, the year it is served with (undefined after). Not a React
 * context: tests render and hydrate in one realm, and an async render left a context's value
 * behind for them.
 */
export function setPrerenderYear(year: number | undefined): void {
  renderedYear = year;
}

/** The current year; during hydration the year the HTML was served with, so they match. */
export function useCopyrightYear(): number {
  return useSyncExternalStore(subscribe, clockYear, () => renderedYear ?? servedYear());
}
