/** Leaves the site for `url` in this tab; an object so tests can watch where it would go. */
export const leaveSite = {
  to(url: string): void {
    window.location.assign(url);
  },
};
