/** Every route of the hash-routed site (SPEC.md §2). Build links from here, never by hand. */
export const paths = {
  home: '/',
  thankYou: '/thank-you',
  privacyPolicy: '/privacy-policy',
  refundPolicy: '/refund-policy',
  termsOfService: '/terms-of-service',
  contactUs: '/contact-us',
  login: '/login',
  admin: '/admin',
  adminLogin: '/admin/login',
  adminBackup: '/admin/backup',
  adminDeliveries: '/admin/deliveries',
  adminOrders: '/admin/orders',
  adminInsights: '/admin/insights',
  adminActivity: '/admin/activity',
  adminPeople: '/admin/people',
  downloadLink: '/download-link',
} as const;

export type AppPath = (typeof paths)[keyof typeof paths];

/** The admin area's pages, in navigation order, with their names in the admin navigation. */
export const adminNav = [
  { path: paths.admin, label: 'Tables' },
  { path: paths.adminInsights, label: 'Insights' },
  { path: paths.adminActivity, label: 'Activity' },
  { path: paths.adminPeople, label: 'People' },
  { path: paths.adminOrders, label: 'Orders' },
  { path: paths.adminBackup, label: 'Backup' },
  { path: paths.adminDeliveries, label: 'Deliveries' },
] as const;

export type AdminPath = (typeof adminNav)[number]['path'];
