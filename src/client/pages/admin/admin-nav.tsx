import { adminPages } from '../../app/admin-pages';
import { Link, useLocation } from '../../app/router';

/**
 * Links to every admin page; the current one is marked for the eye and for screen readers.
 * On a phone the tabs are narrower and their text a little smaller, so all six fit a 375 px
 * screen; a narrower one scrolls.
 */
export function AdminNav() {
  const { pathname } = useLocation();
  return (
    <nav aria-label="Admin pages" className="mx-auto max-w-6xl px-4 sm:px-6">
      <ul className="-mx-2 -mb-px flex overflow-x-auto sm:mx-0 sm:gap-1">
        {adminPages.map(({ path, label }) => {
          const current = path === pathname;
          return (
            <li key={path}>
              <Link
                to={path}
                aria-current={current ? 'page' : undefined}
                className={`inline-block border-b-2 px-1 py-2.5 text-[13px] font-medium sm:px-3 sm:text-sm whitespace-nowrap no-underline hover:no-underline ${
                  current
                    ? 'border-sage-700 text-sage-800'
                    : 'border-transparent text-ink-muted hover:border-sand-300 hover:text-sage-800'
                }`}
              >
                {label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
