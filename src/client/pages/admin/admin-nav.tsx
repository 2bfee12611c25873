import { adminPages } from '../../app/admin-pages';
import { Link, useLocation } from '../../app/router';

/** Links to every admin page; the current one is marked for the eye and for screen readers. */
export function AdminNav() {
  const { pathname } = useLocation();
  return (
    <nav aria-label="Admin pages" className="mx-auto max-w-6xl px-4 sm:px-6">
      <ul className="-mb-px flex gap-1 overflow-x-auto">
        {adminPages.map(({ path, label }) => {
          const current = path === pathname;
          return (
            <li key={path}>
              <Link
                to={path}
                aria-current={current ? 'page' : undefined}
                className={`inline-block border-b-2 px-3 py-2.5 text-sm font-medium whitespace-nowrap no-underline hover:no-underline ${
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
