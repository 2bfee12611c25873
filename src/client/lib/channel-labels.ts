import type { Channel } from '../../shared/insights/visit-source';

/** A channel as the admin names it (Insights' Sources, the Orders list). */
export const channelLabels: Record<Channel, string> = {
  direct: 'Direct',
  search: 'Search',
  social: 'Social',
  email: 'Email',
  paid: 'Paid',
  referral: 'Referral',
};
