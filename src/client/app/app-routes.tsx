import { Fragment, lazy, Suspense, type ReactNode } from 'react';
import { PageFallback } from '../components/page-fallback';
import { HomePage } from '../pages/home-page';
import { paths } from '../../shared/paths';
import { adminPageFor } from './admin-pages';
import { Navigate, useLocation, WithOutlet } from '../routing/router';

// Home is eager so it can be prerendered and hydrated; every other screen is its own chunk,
// and the admin screens never load for visitors.
const ThankYouPage = lazy(() =>
  import('../pages/thank-you-page').then((m) => ({ default: m.ThankYouPage })),
);
const PrivacyPolicyPage = lazy(() =>
  import('../pages/privacy-policy-page').then((m) => ({ default: m.PrivacyPolicyPage })),
);
const RefundPolicyPage = lazy(() =>
  import('../pages/refund-policy-page').then((m) => ({ default: m.RefundPolicyPage })),
);
const TermsOfServicePage = lazy(() =>
  import('../pages/terms-of-service-page').then((m) => ({ default: m.TermsOfServicePage })),
);
const ContactUsPage = lazy(() =>
  import('../pages/contact-us-page').then((m) => ({ default: m.ContactUsPage })),
);
const DownloadLinkPage = lazy(() =>
  import('../pages/download-link-page').then((m) => ({ default: m.DownloadLinkPage })),
);
const LoginPage = lazy(() => import('../pages/login-page').then((m) => ({ default: m.LoginPage })));
const AdminLayout = lazy(() =>
  import('../pages/admin/admin-layout').then((m) => ({ default: m.AdminLayout })),
);

/** The screen for a path; undefined for a path the site does not have. */
function screenFor(pathname: string): ReactNode | undefined {
  switch (pathname) {
    case paths.home:
      return <HomePage />;
    case paths.thankYou:
      return <ThankYouPage />;
    case paths.privacyPolicy:
      return <PrivacyPolicyPage />;
    case paths.refundPolicy:
      return <RefundPolicyPage />;
    case paths.termsOfService:
      return <TermsOfServicePage />;
    case paths.contactUs:
      return <ContactUsPage />;
    case paths.downloadLink:
      return <DownloadLinkPage />;
    case paths.login:
      return <LoginPage mode="normal" />;
    case paths.adminLogin:
      return <LoginPage mode="admin" />;
    default: {
      const AdminPage = adminPageFor(pathname);
      if (!AdminPage) return undefined;
      return (
        <WithOutlet outlet={<AdminPage />}>
          <AdminLayout />
        </WithOutlet>
      );
    }
  }
}

export function AppRoutes() {
  const { pathname } = useLocation();
  const screen = screenFor(pathname);
  return (
    <Suspense fallback={<PageFallback />}>
      {/* Keyed by path so each screen starts fresh (scroll-to-top, page view). */}
      {screen === undefined ? (
        <Navigate to={paths.home} replace />
      ) : (
        <Fragment key={pathname}>{screen}</Fragment>
      )}
    </Suspense>
  );
}
