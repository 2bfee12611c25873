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
  adminStore: '/admin/store',
  adminSubscribers: '/admin/subscribers',
  adminBroadcasts: '/admin/broadcasts',
  downloadLink: '/download-link',
} as const;

export type AppPath = (typeof paths)[keyof typeof paths];
