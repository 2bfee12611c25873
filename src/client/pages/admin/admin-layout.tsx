import { LogOut } from 'lucide-react';
import { Suspense, useState, type ReactNode } from 'react';
import { Link, Navigate, Outlet, useNavigate } from '../../routing/router';
import { paths } from '../../../shared/paths';
import { adminSecondaryButton } from '../../components/admin-styles';
import { PageFallback } from '../../components/page-fallback';
import { session, useSession } from '../../features/auth/session-store';
import { AdminNav } from './admin-nav';
import { errorMessage } from '../../../shared/error-message';

function LogoutButton({ onError }: { onError: (message: string) => void }) {
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  async function logout() {
    setBusy(true);
    try {
      await session.signOut();
      void navigate(paths.adminLogin, { replace: true });
    } catch (error) {
      onError(errorMessage(error));
      setBusy(false);
    }
  }
  return (
    <button
      type="button"
      onClick={() => void logout()}
      disabled={busy}
      className={adminSecondaryButton}
    >
      <LogOut aria-hidden="true" className="size-4" />
      Logout
    </button>
  );
}

function Shell({
  email,
  nav = false,
  children,
}: {
  email?: string;
  /** The admin pages' navigation, for an admin only. */
  nav?: boolean;
  children: ReactNode;
}) {
  const [error, setError] = useState('');
  return (
    <div className="flex min-h-dvh flex-col bg-sand-50">
      <header className="border-b border-sand-200 bg-white">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-x-6 gap-y-3 px-4 py-4 sm:px-6">
          <h1 className="text-2xl font-semibold tracking-tight text-sage-800">Admin Dashboard</h1>
          {email && (
            <div className="flex min-w-0 items-center gap-4">
              <span className="truncate text-sm text-ink-muted" data-testid="admin-email">
                {email}
              </span>
              <LogoutButton onError={setError} />
            </div>
          )}
        </div>
        {error && (
          <p role="alert" className="mx-auto max-w-6xl px-4 pb-3 text-sm text-red-700 sm:px-6">
            {error}
          </p>
        )}
        {nav && <AdminNav />}
      </header>
      <main className="mx-auto w-full max-w-6xl flex-1 px-4 py-8 sm:px-6">{children}</main>
      <footer className="border-t border-sand-200 bg-white">
        <p className="mx-auto max-w-6xl px-4 py-4 text-center text-sm text-ink-muted sm:px-6">
          Built with care for <Link to={paths.home}>Soul Reset</Link>
        </p>
      </footer>
    </div>
  );
}

/** The admin area's frame: only a signed-in admin sees the pages inside it. */
export function AdminLayout() {
  const access = useSession();

  if (access.status === 'signed-out') return <Navigate to={paths.adminLogin} replace />;
  if (access.status === 'loading') {
    return (
      <Shell>
        <PageFallback />
      </Shell>
    );
  }
  if (!access.isAdmin) {
    return (
      <Shell email={access.email}>
        <section
          aria-labelledby="no-access-heading"
          className="mx-auto max-w-xl rounded-2xl border border-sand-200 bg-white px-6 py-8 text-center shadow-sm"
        >
          <h2 id="no-access-heading" className="text-xl font-semibold text-sage-800">
            No access
          </h2>
          <p className="mt-3 text-ink-muted">
            The account {access.email} does not have access to the admin dashboard. Log out and sign
            in with an admin email address.
          </p>
        </section>
      </Shell>
    );
  }
  return (
    <Shell email={access.email} nav>
      <Suspense fallback={<PageFallback />}>
        <Outlet />
      </Suspense>
    </Shell>
  );
}
