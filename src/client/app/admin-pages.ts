import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { adminNav, type AdminPath } from '../../shared/paths';

type Page = LazyExoticComponent<ComponentType>;

/**
 * The screen of each admin page (shared/paths.ts names them and orders the navigation). Each
 * is a lazy chunk shown inside the admin layout, so none of their code loads for visitors.
 */
const screens: Record<AdminPath, Page> = {
  '/admin': lazy(() =>
    import('../pages/admin/admin-tables-page').then((m) => ({ default: m.AdminTablesPage })),
  ),
  '/admin/insights': lazy(() =>
    import('../pages/admin/insights-page').then((m) => ({ default: m.InsightsPage })),
  ),
  '/admin/activity': lazy(() =>
    import('../pages/admin/activity-page').then((m) => ({ default: m.ActivityPage })),
  ),
  '/admin/people': lazy(() =>
    import('../pages/admin/people-page').then((m) => ({ default: m.PeoplePage })),
  ),
  '/admin/orders': lazy(() =>
    import('../pages/admin/orders-page').then((m) => ({ default: m.OrdersPage })),
  ),
  '/admin/backup': lazy(() =>
    import('../pages/admin/backup-page').then((m) => ({ default: m.BackupPage })),
  ),
  '/admin/deliveries': lazy(() =>
    import('../pages/admin/admin-deliveries-page').then((m) => ({
      default: m.AdminDeliveriesPage,
    })),
  ),
};

/** The lazy screen of an admin page; undefined for a path the admin does not have. */
export function adminPageFor(pathname: string): Page | undefined {
  return adminNav.some(({ path }) => path === pathname)
    ? screens[pathname as AdminPath]
    : undefined;
}
