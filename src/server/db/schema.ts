import type { ColumnType, Generated } from 'kysely';
import type { InsightEventName } from '../../shared/insights/insight-events';
import type {
  ListEventKind,
  ListSource,
  ListStatus,
  UnsubscribeScope,
} from '../../shared/list/list-api';
import type { BroadcastStatus } from '../../shared/broadcasts/broadcasts-api';
import type { OrderStatus } from '../../shared/orders/order-api';
import type { ImageFormat, StoreFileKind } from '../../shared/store/files-api';
import type { TableName } from '../../shared/tables';

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<
  Date | null,
  Date | string | null | undefined,
  Date | string | null
>;

/** Columns every submission table shares (SPEC.md §3, plus the owner's notes). */
type SubmissionColumns = {
  id: Generated<number>;
  name: string;
  email: string;
  email_sent: Generated<boolean>;
  email_sent_at: NullableTimestamp;
  notes: Generated<string>;
  created_at: CreatedAt;
  updated_at: Timestamp;
};

export type MessageSubmission = SubmissionColumns & { message: Generated<string> };
export type FormSubmission = MessageSubmission & { purchase_intent: Generated<boolean> };

/** Fails to compile if a table of the contract has no row type here. */
type CoversEveryTable<T extends Record<TableName, unknown>> = T;

/** DESIGN.md "Mail delivery": one row per email about a stored record. */
export type MailDelivery = {
  id: Generated<number>;
  source_table: string;
  source_id: number;
  recipient: string;
  reply_to: string | null;
  subject: string;
  html: string;
  text: string;
  status: ColumnType<MailDeliveryStatus, MailDeliveryStatus | undefined, MailDeliveryStatus>;
  attempts: Generated<number>;
  next_attempt_at: Timestamp;
  locked_until: NullableTimestamp;
  last_error: string | null;
  sent_at: NullableTimestamp;
  failed_at: NullableTimestamp;
  /** Extra headers (a list email's List-Unsubscribe), as JSON text on insert. */
  headers: ColumnType<Record<string, string> | null, string | null | undefined, string | null>;
  created_at: CreatedAt;
};

export type MailDeliveryStatus = 'pending' | 'sent' | 'failed';

/** DESIGN.md "Selling for real": one row per checkout session. */
export type Order = {
  id: Generated<number>;
  provider: Generated<string>;
  session_id: string;
  payment_intent: string | null;
  email: Generated<string>;
  name: string | null;
  amount_total: number | null;
  currency: string | null;
  status: ColumnType<OrderStatus, OrderStatus | undefined, OrderStatus>;
  paid_at: NullableTimestamp;
  links_revoked_at: NullableTimestamp;
  utm_source: ColumnType<string | null, string | null | undefined, string | null>;
  utm_medium: ColumnType<string | null, string | null | undefined, string | null>;
  utm_campaign: ColumnType<string | null, string | null | undefined, string | null>;
  channel: ColumnType<string | null, string | null | undefined, string | null>;
  /** The discount code that explained the payment's discount (migration 0018). */
  discount_code: ColumnType<string | null, string | null | undefined, string | null>;
  amount_discount: ColumnType<number | null, number | null | undefined, number | null>;
  utm_content: ColumnType<string | null, string | null | undefined, string | null>;
  utm_term: ColumnType<string | null, string | null | undefined, string | null>;
  notes: Generated<string>;
  created_at: CreatedAt;
  updated_at: Timestamp;
};

export type DownloadLink = {
  id: Generated<number>;
  order_id: number;
  token_hash: string;
  expires_at: Timestamp;
  downloads: Generated<number>;
  max_downloads: number;
  revoked_at: NullableTimestamp;
  created_at: CreatedAt;
};

export type PaymentEvent = {
  event_id: string;
  type: string;
  session_id: string | null;
  payment_intent: string | null;
  revokes: Generated<boolean>;
  received_at: CreatedAt;
};

/** DESIGN.md "Insights": `day` is a UTC date, read as YYYY-MM-DD with to_char. */
export type InsightSalt = { day: string; salt: Buffer };

export type InsightEvent = {
  id: Generated<number>;
  day: string;
  name: InsightEventName;
  path: string;
  visitor: string;
  created_at: CreatedAt;
  source: Generated<string>;
  medium: Generated<string>;
  campaign: Generated<string>;
  channel: Generated<string>;
  browser: Generated<string>;
  device: Generated<string>;
  content: Generated<string>;
  term: Generated<string>;
};

export type InsightDaily = {
  day: string;
  name: InsightEventName;
  visitors: number;
  events: number;
};

export type InsightSourceDaily = {
  day: string;
  source: string;
  medium: string;
  campaign: string;
  channel: string;
  name: InsightEventName;
  visitors: number;
  events: number;
};

/** insight_source_daily's counters side by side per day and source key (the Sources answer). */
export type InsightCampaignDaily = {
  day: string;
  source: string;
  medium: string;
  campaign: string;
  channel: string;
  visitors: number;
  pageviews: number;
  guide_requests: number;
  checkout_clicks: number;
};

/** Every source key rolled up, with its first and last day (migration 0019). */
export type InsightCampaignKey = {
  id: Generated<number>;
  source: string;
  medium: string;
  campaign: string;
  channel: string;
  first_day: string;
  last_day: string;
  /** Its running totals through last_day (migration 0023). */
  days: Generated<number>;
  visitors: Generated<number>;
  guide_requests: Generated<number>;
  checkout_clicks: Generated<number>;
};

/** A key's insight_campaign_daily counters summed over its days up to `day`. */
export type InsightCampaignRunning = {
  key_id: number;
  day: string;
  days: number;
  visitors: number;
  guide_requests: number;
  checkout_clicks: number;
};

/** A source key of paid orders (migration 0019, kept by a trigger on orders). */
export type OrderSourceKey = {
  id: Generated<number>;
  source: string;
  medium: string;
  campaign: string;
  channel: string;
  /** The first and last days of its running rows, and the totals of the last (migration 0023). */
  first_day: Generated<string>;
  last_day: Generated<string>;
  purchases: Generated<number>;
  revenue: Generated<number>;
};

/** A key's paid orders of one day (order_source_daily), or through that day (…_running). */
export type OrderSourceCounts = { key_id: number; day: string; purchases: number; revenue: number };

/** DESIGN.md "The offer, edited by the owner": content is a StoreContent document. */
export type StoreVersion = {
  version: number;
  content: ColumnType<unknown, string, never>;
  published_at: CreatedAt;
  /** The admin who published it; null for the first version, seeded from the settings. */
  published_by: string | null;
};

export type StoreSchedule = {
  id: Generated<number>;
  content: ColumnType<unknown, string, string>;
  publish_at: Timestamp;
  created_at: Timestamp;
  created_by: string;
};

export type StoreDraft = {
  id: Generated<number>;
  content: ColumnType<unknown, string, string>;
  updated_at: Timestamp;
  updated_by: string | null;
};

/** DESIGN.md "The offer, edited by the owner": an uploaded file, never changed once stored. */
export type StoreFile = {
  id: string;
  kind: StoreFileKind;
  name: string;
  content_type: string;
  size: number;
  sha256: string;
  width: number | null;
  height: number | null;
  created_by: string;
  created_at: CreatedAt;
};

/** A product or guide file's bytes, in order from seq 0. */
export type StoreFileChunk = { file_id: string; seq: number; data: Buffer };

/** An uploaded image re-encoded at one width in one format. */
export type StoreImageVariant = {
  file_id: string;
  width: number;
  height: number;
  format: ImageFormat;
  hash: string;
  data: Buffer;
};

/** DESIGN.md "The mailing list": one row per address. */
export type ListSubscriber = {
  id: Generated<number>;
  email: string;
  name: Generated<string>;
  status: ColumnType<ListStatus, ListStatus | undefined, ListStatus>;
  source: ListSource;
  created_at: CreatedAt;
  confirmed_at: NullableTimestamp;
  unsubscribed_at: NullableTimestamp;
  unsubscribed_scope: ColumnType<
    UnsubscribeScope | null,
    UnsubscribeScope | null | undefined,
    UnsubscribeScope | null
  >;
  updated_at: Timestamp;
  /** Its follow-up sequence ended (migration 0017): at a verified paid order or an unsubscribe. */
  sequence_ended_at: NullableTimestamp;
  sequence_end_reason: ColumnType<
    SequenceEndReason | null,
    SequenceEndReason | null | undefined,
    SequenceEndReason | null
  >;
};

export type SequenceEndReason = 'purchase' | 'unsubscribed';

/** The follow-up sequence's one row: its switch. */
export type ListSequence = {
  id: Generated<boolean>;
  active: Generated<boolean>;
  active_since: NullableTimestamp;
  updated_at: Timestamp;
};

/** A sequence step's columns of `broadcasts` (migration 0017); null on a broadcast. */
export type SequenceStepColumns = {
  position: number | null;
  delay_days: number | null;
};

/** Append-only proof of consent. */
export type ListConsentEvent = {
  id: Generated<number>;
  subscriber_id: number | null;
  kind: ListEventKind;
  wording_version: number | null;
  source: string;
  created_at: CreatedAt;
};

export type ListToken = {
  token_hash: string;
  subscriber_id: number;
  purpose: 'confirm' | 'unsubscribe';
  created_at: CreatedAt;
};

/** An erased address's hash, kept so an import does not add it back. */
export type ListSuppression = { email_hash: string; created_at: CreatedAt };

/** DESIGN.md "The mailing list": a broadcast, or a step of the follow-up sequence. */
export type Broadcast = {
  id: Generated<number>;
  kind: ColumnType<BroadcastKind, BroadcastKind | undefined, BroadcastKind>;
  slug: string;
  subject: string;
  preheader: Generated<string>;
  html: string;
  exclude_buyers: Generated<boolean>;
  status: ColumnType<BroadcastStatus, BroadcastStatus | undefined, BroadcastStatus>;
  scheduled_at: NullableTimestamp;
  started_at: NullableTimestamp;
  audience_after: Generated<number>;
  audience_done_at: NullableTimestamp;
  finished_at: NullableTimestamp;
  created_by: string | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
};

/** DESIGN.md "Prices and promotions": one discount code, and its coupon in Stripe. */
export type DiscountCode = {
  id: Generated<number>;
  code: string;
  percent_off: number | null;
  amount_off_cents: number | null;
  currency: string | null;
  max_uses: number | null;
  starts_at: NullableTimestamp;
  ends_at: NullableTimestamp;
  active: boolean;
  stripe_coupon_id: string | null;
  stripe_promotion_code_id: string | null;
  stripe_terms: string | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
};

export type BroadcastKind = 'broadcast' | 'sequence';
export type RecipientStatus = 'pending' | 'sent' | 'failed' | 'bounced' | 'skipped';

/** One message of a broadcast or sequence step to one subscriber. */
export type BroadcastRecipient = {
  id: Generated<number>;
  broadcast_id: number;
  subscriber_id: number;
  status: ColumnType<RecipientStatus, RecipientStatus | undefined, RecipientStatus>;
  attempts: Generated<number>;
  next_attempt_at: Timestamp;
  locked_until: NullableTimestamp;
  last_error: string | null;
  sent_at: NullableTimestamp;
  created_at: CreatedAt;
};

/** List mail's rate windows, shared by every instance. */
export type MailRateWindow = { scope: 'second' | 'hour'; window_start: Date; used: number };

export type Database = CoversEveryTable<{
  form_submissions: FormSubmission;
  contact_us_submissions: FormSubmission;
  soul_reset_submissions: FormSubmission;
  free_product_gift_submissions: SubmissionColumns;
  refund_inquiries: MessageSubmission;
  terms_of_service_feedback: MessageSubmission;
  mail_deliveries: MailDelivery;
  orders: Order;
  download_links: DownloadLink;
  payment_events: PaymentEvent;
  insight_salts: InsightSalt;
  insight_events: InsightEvent;
  insight_daily: InsightDaily;
  insight_source_daily: InsightSourceDaily;
  insight_campaign_daily: InsightCampaignDaily;
  insight_campaign_keys: InsightCampaignKey;
  insight_campaign_running: InsightCampaignRunning;
  insight_campaign_day_totals: { day: string; visitors: number; pageviews: number };
  order_source_keys: OrderSourceKey;
  order_source_daily: OrderSourceCounts;
  order_source_running: OrderSourceCounts;
  order_day_totals: { day: string; purchases: number; revenue: number };
  insight_entry_daily: { day: string; path: string; visitors: number };
  insight_client_daily: { day: string; browser: string; device: string; visitors: number };
  store_versions: StoreVersion;
  store_draft: StoreDraft;
  store_schedule: StoreSchedule;
  store_files: StoreFile;
  store_file_chunks: StoreFileChunk;
  store_image_variants: StoreImageVariant;
  list_subscribers: ListSubscriber;
  list_consent_events: ListConsentEvent;
  list_tokens: ListToken;
  list_suppressions: ListSuppression;
  broadcasts: Broadcast & SequenceStepColumns;
  broadcast_recipients: BroadcastRecipient;
  mail_rate_windows: MailRateWindow;
  list_sequence: ListSequence;
  discount_codes: DiscountCode;
}>;
