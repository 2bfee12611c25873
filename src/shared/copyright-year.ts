/**
 * The footer's copyright year is the current year. The server renders the page with its year
 * (and again after New Year) and embeds the same year in the page's settings, so the browser
 * hydrates against the year the HTML shows, then shows its own clock's year if that differs.
 */

/** The key of the served year in the page's embedded settings JSON. */
export const SERVED_YEAR_KEY = 'copyrightYear';
