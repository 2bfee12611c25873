/**
 * The footer's copyright year is the current year. The HTML is prerendered at build time with
 * this placeholder where the year goes; the server writes the year in when it serves the page
 * (and again after New Year) and embeds the same year in the page's settings, so the browser
 * hydrates against the year the HTML shows, then shows its own clock's year if that differs.
 */
export const COPYRIGHT_YEAR_PLACEHOLDER = '__COPYRIGHT_YEAR__';

/** The key of the served year in the page's embedded settings JSON. */
export const SERVED_YEAR_KEY = 'copyrightYear';
