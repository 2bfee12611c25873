import { adminNav } from '../../../shared/admin-nav';
import { Link, useLocation } from '../../routing/router';

/**
 * Links to every admin page; the current one is marked for the eye and for screen readers.
 * On a phone the links are pills that wrap onto a second row, so all of them show at once
 * without widening the page; from the small breakpoint up they are one row of tabs.
 */
export function AdminNav() {
  const { pathname } = useLocation();
  return (
    <nav aria-label="Admin pages" className="mx-auto max-w-6xl px-4 sm:px-6">
      <ul className="-mx-1 flex flex-wrap gap-1 pb-2 sm:mx-0 sm:-mb-px sm:flex-nowrap sm:pb-0">
        {adminNav.map(({ path, label }) => {
          const current = path === pathname;
          return (
            <li key={path}>
              <Link
                to={path}
                aria-current={current ? 'page' : undefined}
                className={`inline-block rounded-lg px-2.5 py-1.5 text-sm font-medium whitespace-nowrap no-underline hover:no-underline sm:rounded-none sm:border-b-2 sm:px-3 sm:py-2.5 ${
                  current
                    ? 'bg-sage-100 text-sage-800 sm:border-sage-700 sm:bg-transparent'
                    : 'text-ink-muted hover:bg-sand-100 hover:text-sage-800 sm:border-transparent sm:hover:border-sand-300 sm:hover:bg-transparent'
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
