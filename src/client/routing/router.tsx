/**
 * A small hash router: the routes of SPEC.md §2 live after the `#` (`#/privacy-policy`), and a
 * second `#` names a section of the page (`#/#order-form`). It exports the subset of
 * react-router's API this app uses, under the same names, at a fraction of the size: the
 * home page's first-load JavaScript has a 90 KB gzip budget and react-router alone took 16 KB
 * of it (see README.md, "Performance").
 */
import {
  createContext,
  useContext,
  useEffect,
  useSyncExternalStore,
  type AnchorHTMLAttributes,
  type ReactNode,
} from 'react';
import { parseHashLocation, type Location } from './hash-location';

export type NavigateOptions = { replace?: boolean };
export type NavigateFunction = (to: string, options?: NavigateOptions) => void;

// Its own module so that code outside React (the insights collector) can read the route too.
export { parseHashLocation, type Location };

const listeners = new Set<() => void>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  window.addEventListener('hashchange', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('hashchange', listener);
  };
}

const currentHash = () => window.location.hash;

/**
 * Goes to a route; `replace` swaps the current history entry instead of adding one. The routers
 * are told at once: replaceState fires no hashchange, and a new hash fires it only after this
 * task, by when a control whose state lives in the address (a filter checkbox) would have been
 * put back as it was.
 */
export const navigate: NavigateFunction = (to, options = {}) => {
  if (options.replace) window.history.replaceState(window.history.state, '', `#${to}`);
  else window.location.hash = to;
  for (const listener of listeners) listener();
};

const LocationContext = createContext<Location>(parseHashLocation('#/'));
const OutletContext = createContext<ReactNode>(null);

/**
 * The address hydration starts from: the route the prerendered markup was made for, spelled as
 * the browser spells it when the address is just that route ('' or '#/' for home). A snapshot
 * that differs from the browser's makes React render the whole page again right after
 * hydrating, in one task, as it did for home opened without a hash ('' against '#/').
 */
function hydrationHash(hydratedFrom: string): string {
  const hash = currentHash();
  const { pathname, search, hash: section } = parseHashLocation(hash);
  return pathname === hydratedFrom && !search && !section ? hash : `#${hydratedFrom}`;
}

/**
 * Routes from the browser's address: re-renders whenever the hash changes. Hydration starts
 * from `hydratedFrom`, the route the prerendered markup was made for, then catches up.
 */
export function HashRouter({
  children,
  hydratedFrom = '/',
}: {
  children: ReactNode;
  hydratedFrom?: string;
}) {
  const hash = useSyncExternalStore(subscribe, currentHash, () => hydrationHash(hydratedFrom));
  return <LocationContext value={parseHashLocation(hash)}>{children}</LocationContext>;
}

/** A fixed location, for prerendering and tests. */
export function StaticRouter({ location, children }: { location: string; children: ReactNode }) {
  return <LocationContext value={parseHashLocation(`#${location}`)}>{children}</LocationContext>;
}

export function useLocation(): Location {
  return useContext(LocationContext);
}

export function useNavigate(): NavigateFunction {
  return navigate;
}

type LinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & { to: string };

/** A plain anchor to `#<to>`: the browser changes the hash, and the router follows. */
export function Link({ to, ...anchor }: LinkProps) {
  return <a href={`#${to}`} {...anchor} />;
}

/** Goes to `to` as soon as it renders (a redirect). */
export function Navigate({ to, replace = false }: { to: string; replace?: boolean }) {
  useEffect(() => {
    navigate(to, { replace });
  }, [to, replace]);
  return null;
}

/** Renders a layout with `outlet` available to its <Outlet/>. */
export function WithOutlet({ outlet, children }: { outlet: ReactNode; children: ReactNode }) {
  return <OutletContext value={outlet}>{children}</OutletContext>;
}

/** Where a layout route shows its child route. */
export function Outlet() {
  return <>{useContext(OutletContext)}</>;
}
