/** The six stored tables (DESIGN.md "Data"); their names are part of the contract. */
export const tableNames = [
  'form_submissions',
  'free_product_gift_submissions',
  'refund_inquiries',
  'terms_of_service_feedback',
  'contact_us_submissions',
  'soul_reset_submissions',
] as const;

export type TableName = (typeof tableNames)[number];
