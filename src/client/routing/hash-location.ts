export type Location = { pathname: string; search: string; hash: string };

/** Splits a location hash such as `#/login?next=1#top` into its route parts. */
export function parseHashLocation(hash: string): Location {
  const route = hash.replace(/^#/, '');
  const hashAt = route.indexOf('#');
  const beforeHash = hashAt === -1 ? route : route.slice(0, hashAt);
  const searchAt = beforeHash.indexOf('?');
  const pathname = searchAt === -1 ? beforeHash : beforeHash.slice(0, searchAt);
  return {
    pathname: pathname.startsWith('/') ? pathname : `/${pathname}`,
    search: searchAt === -1 ? '' : beforeHash.slice(searchAt),
    hash: hashAt === -1 ? '' : route.slice(hashAt),
  };
}
