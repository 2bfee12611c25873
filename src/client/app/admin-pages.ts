import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { paths } from '../../shared/paths';

export type AdminPage = {
  path: string;
  /** Its name in the admin navigation. */
  label: string;
  page: LazyExoticComponent<ComponentType>;
};

/**
 * The admin area's pages, in navigation order. Each is a lazy chunk shown inside the admin
 * layout, so none of their code loads for visitors; this list itself is only paths and names.
 */
export const adminPages: AdminPage[] = [
  {
    path: paths.admin,
    label: 'Tables',
    page: lazy(() =>
      import('../pages/admin/admin-tables-page').then((m) => ({ default: m.AdminTablesPage })),
    ),
  },
  {
    path: paths.adminInsights,
    label: 'Insights',
    page: lazy(() =>
      import('../features/insights/insights-page').then((m) => ({ default: m.InsightsPage })),
    ),
  },
  {
    path: '/admin/activity',
    label: 'Activity',
    page: lazy(() =>
      import('../features/audit/activity-page').then((m) => ({ default: m.ActivityPage })),
    ),
  },
  {
    path: '/admin/people',
    label: 'People',
    page: lazy(() =>
      import('../features/people/people-page').then((m) => ({ default: m.PeoplePage })),
    ),
  },
  {
    path: paths.adminOrders,
    label: 'Orders',
    page: lazy(() =>
      import('../features/orders/orders-page').then((m) => ({ default: m.OrdersPage })),
    ),
  },
  {
    path: paths.adminBackup,
    label: 'Backup',
    page: lazy(() =>
      import('../features/backup/backup-page').then((m) => ({ default: m.BackupPage })),
    ),
  },
  {
    path: paths.adminDeliveries,
    label: 'Deliveries',
    page: lazy(() =>
      import('../pages/admin/admin-deliveries-page').then((m) => ({
        default: m.AdminDeliveriesPage,
      })),
    ),
  },
];

export function adminPageFor(pathname: string): AdminPage | undefined {
  return adminPages.find((page) => page.path === pathname);
}
