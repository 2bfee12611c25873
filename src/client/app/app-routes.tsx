import { lazy, Suspense } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { PageFallback } from '../components/page-fallback';
import { HomePage } from '../pages/home-page';
import { paths } from '../../shared/paths';

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
const LoginPage = lazy(() => import('../pages/login-page').then((m) => ({ default: m.LoginPage })));
const AdminLayout = lazy(() =>
  import('../pages/admin/admin-layout').then((m) => ({ default: m.AdminLayout })),
);
const AdminTablesPage = lazy(() =>
  import('../pages/admin/admin-tables-page').then((m) => ({ default: m.AdminTablesPage })),
);

export function AppRoutes() {
  return (
    <Suspense fallback={<PageFallback />}>
      <Routes>
        <Route path={paths.home} element={<HomePage />} />
        <Route path={paths.thankYou} element={<ThankYouPage />} />
        <Route path={paths.privacyPolicy} element={<PrivacyPolicyPage />} />
        <Route path={paths.refundPolicy} element={<RefundPolicyPage />} />
        <Route path={paths.termsOfService} element={<TermsOfServicePage />} />
        <Route path={paths.contactUs} element={<ContactUsPage />} />
        <Route path={paths.login} element={<LoginPage mode="normal" />} />
        <Route path={paths.adminLogin} element={<LoginPage mode="admin" />} />
        <Route path={paths.admin} element={<AdminLayout />}>
          <Route index element={<AdminTablesPage />} />
        </Route>
        <Route path="*" element={<Navigate to={paths.home} replace />} />
      </Routes>
    </Suspense>
  );
}
