import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { AdminPath } from '../../shared/admin-nav';
import { paths } from '../../shared/paths';

type Page = LazyExoticComponent<ComponentType>;

/**
 * The screen of each admin page (shared/admin-nav.ts names them and orders the navigation). Each
 * is a lazy chunk shown inside the admin layout, so none of their code loads for visitors.
 */
const screens: Record<AdminPath, Page> = {
  [paths.admin]: lazy(() =>
    import('../pages/admin/admin-tables-page').then((m) => ({ default: m.AdminTablesPage })),
  ),
  [paths.adminStore]: lazy(() =>
    import('../pages/admin/store-page').then((m) => ({ default: m.StorePage })),
  ),
  [paths.adminInsights]: lazy(() =>
    import('../pages/admin/insights-page').then((m) => ({ default: m.InsightsPage })),
  ),
  [paths.adminActivity]: lazy(() =>
    import('../pages/admin/activity-page').then((m) => ({ default: m.ActivityPage })),
  ),
  [paths.adminPeople]: lazy(() =>
    import('../pages/admin/people-page').then((m) => ({ default: m.PeoplePage })),
  ),
  [paths.adminOrders]: lazy(() =>
    import('../pages/admin/orders-page').then((m) => ({ default: m.OrdersPage })),
  ),
  [paths.adminSubscribers]: lazy(() =>
    import('../pages/admin/subscribers-page').then((m) => ({ default: m.SubscribersPage })),
  ),
  [paths.adminBroadcasts]: lazy(() =>
    import('../pages/admin/broadcasts-page').then((m) => ({ default: m.BroadcastsPage })),
  ),
  [paths.adminBackup]: lazy(() =>
    import('../pages/admin/backup-page').then((m) => ({ default: m.BackupPage })),
  ),
  [paths.adminDeliveries]: lazy(() =>
    import('../pages/admin/admin-deliveries-page').then((m) => ({
      default: m.AdminDeliveriesPage,
    })),
  ),
};

/** The lazy screen of an admin page; undefined for a path the admin does not have. */
export function adminPageFor(pathname: string): Page | undefined {
  return Object.hasOwn(screens, pathname) ? screens[pathname as AdminPath] : undefined;
}
