import { paths } from './paths';

/**
 * The admin area's pages, in navigation order, with their names in the admin navigation. Its
 * own module: the home page loads paths.ts, and these names are only the admin's.
 */
export const adminNav = [
  { path: paths.admin, label: 'Tables' },
  { path: paths.adminStore, label: 'Store' },
  { path: paths.adminInsights, label: 'Insights' },
  { path: paths.adminActivity, label: 'Activity' },
  { path: paths.adminPeople, label: 'People' },
  { path: paths.adminOrders, label: 'Orders' },
  { path: paths.adminSubscribers, label: 'Subscribers' },
  { path: paths.adminBroadcasts, label: 'Broadcasts' },
  { path: paths.adminBackup, label: 'Backup' },
  { path: paths.adminDeliveries, label: 'Deliveries' },
] as const;

export type AdminPath = (typeof adminNav)[number]['path'];
