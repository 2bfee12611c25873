import { sql, type Kysely, type Selectable } from 'kysely';
import { formatMoney } from '../../shared/money';
import type { Config } from '../config/load-config';
import type { Database, Order } from '../db/schema';
import { deliveryRows, queueDelivery } from '../mail/delivery-store';
import { isValidAddress, type MailMessage } from '../mail/mail-message';
import type { Notification } from '../forms/notification-emails';
import type { ListService } from '../list/list-service';
import type { StoreService } from '../store/store-plugin';
import type { CheckoutSession } from './checkout-session';
import { sourceOfReference } from '../../shared/insights/source-reference';
import { channelOf } from '../insights/channel';
import { endSequence } from '../sequence/sequence-end';
import { createLink, downloadPath, linkRow, revokeLinks } from './download-links';
import {
  disputedOrderEmail,
  newLinkEmail,
  paidAmount,
  paidOrderEmail,
  receiptEmail,
  reviewOrderEmail,
  type OrderSummary,
} from './order-emails';

export type OrderRow = Selectable<Order>;

/**
 * What fulfilment needs to know: the product's link rules, the owner, the site's URL and the
 * live store content (the receipt's texts).
 */
export type OrderSettings = Pick<Config, 'product' | 'ownerEmail' | 'publicUrl'> & {
  store: Pick<StoreService, 'published'>;
  /** The mailing list, for a buyer who opted in to promotional email at checkout. */
  list?: Pick<ListService, 'confirmBuyerIn'>;
};

/**
 * The outcome of a change: the order as it now is, and whether emails were queued (the
 * caller wakes the delivery worker once its transaction has committed).
 */
export type OrderChange = { order: OrderRow | undefined; queued: boolean };

function summary(settings: OrderSettings, order: OrderRow): OrderSummary {
  return {
    productName: settings.store.published().content.product.name,
    id: order.id,
    sessionId: order.session_id,
    email: order.email,
    name: order.name,
    amount: order.amount_total,
    currency: order.currency,
  };
}

function source(order: OrderRow) {
  return { table: 'orders', id: order.id };
}

function toOwner(settings: OrderSettings, email: Notification): MailMessage {
  return { to: [settings.ownerEmail], ...email };
}

/** What the store's versions say of a payment's amount (read with the order, one query). */
type PriceCheck = {
  /** A version on sale had this amount and currency (see applySession). */
  matches: boolean;
  /** The named version's product, else the live one's; null for a version never published. */
  expected: { priceCents: number; currency: string } | null;
  /** metadata.store_version of the session, when it names one. */
  named: number | undefined;
};

/** Why a payment is not what the product costs, or undefined when it is. */
function mismatch(order: OrderRow, price: PriceCheck): string | undefined {
  if (!price.matches) {
    const paid = `Paid ${paidAmount(order.amount_total, order.currency)}`;
    const { expected, named } = price;
    if (!expected) {
      const which = named ? `store version ${named}` : 'a store version';
      return `${paid}; the checkout names ${which}, which was never published.`;
    }
    const costs = formatMoney(expected.priceCents, expected.currency);
    return named === undefined
      ? `${paid}; the product costs ${costs}.`
      : `${paid}; store version ${named} sold the product at ${costs}.`;
  }
  if (!isValidAddress(order.email))
    return 'The payment has no valid email address to send the link to.';
  return undefined;
}

/**
 * Where a session's buyer came from (DESIGN.md "Sources and campaigns"): the metadata's
 * utm_source (our Checkout Session, or the owner's own keys on a session we did not create),
 * else the Payment Link's client_reference_id; all null when it names none.
 */
export function orderSource(session: CheckoutSession) {
  const metadata = session.metadata;
  // Metadata is ours or the owner's: its channel stands. The reference came from the browser:
  // its channel is only a hint (channelOf).
  const visit = metadata?.utm_source
    ? {
        source: metadata.utm_source,
        medium: metadata.utm_medium ?? '',
        campaign: metadata.utm_campaign ?? '',
        channel: metadata.channel,
      }
    : sourceOfReference(session.client_reference_id);
  if (!visit) return { utm_source: null, utm_medium: null, utm_campaign: null, channel: null };
  return {
    utm_source: visit.source,
    utm_medium: visit.medium,
    utm_campaign: visit.campaign,
    channel: (metadata?.utm_source && metadata.channel) || channelOf(visit),
  };
}

/** The email carrying a buyer's link: a receipt for a first one. */
function linkEmail(
  settings: OrderSettings,
  order: OrderRow,
  link: { token: string; expiresAt: Date },
  kind: 'receipt' | 'new-link',
): MailMessage {
  const { product, publicUrl } = settings;
  const content = settings.store.published().content;
  const input = {
    name: order.name,
    productName: content.product.name,
    url: `${publicUrl}${downloadPath(link.token)}`,
    expiresAt: link.expiresAt,
    downloadLimit: product.downloadLimit,
  };
  const email =
    kind === 'receipt'
      ? receiptEmail({
          ...input,
          ...content.receipt,
          amount: order.amount_total,
          currency: order.currency,
          paidAt: order.paid_at ?? new Date(),
        })
      : newLinkEmail(input);
  return { to: [order.email], ...email };
}

/** Mails the buyer a new link: a receipt for a first one. */
export async function sendLink(
  db: Kysely<Database>,
  settings: OrderSettings,
  order: OrderRow,
  kind: 'receipt' | 'new-link',
): Promise<void> {
  const link = await createLink(db, order.id, settings.product);
  await queueDelivery(db, source(order), linkEmail(settings, order, link, kind));
}

/**
 * A matching payment, in one statement: the order becomes paid, gets its first link, and
 * the buyer's receipt and the owner's note are queued. `now` is the transaction's time, which
 * the statement's now() also reads, so the receipt states the stored expiry and payment time.
 */
async function fulfil(
  db: Kysely<Database>,
  settings: OrderSettings,
  order: OrderRow,
  now: Date,
): Promise<OrderRow> {
  const { token, row } = linkRow(order.id, settings.product);
  const paid = { ...order, status: 'paid' as const, paid_at: now };
  const expiresAt = new Date(now.getTime() + settings.product.linkHours * 3_600_000);
  const emails = [
    linkEmail(settings, paid, { token, expiresAt }, 'receipt'),
    toOwner(settings, paidOrderEmail(summary(settings, paid))),
  ];
  return db
    .with('link', (db) => db.insertInto('download_links').values(row))
    .with('mail', (db) =>
      db.insertInto('mail_deliveries').values(deliveryRows(source(order), emails)),
    )
    .updateTable('orders')
    .set({ status: 'paid', updated_at: sql`now()`, paid_at: sql`now()` })
    .where('id', '=', order.id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * The one fulfilment of a checkout session, from the webhook or from the thank-you page's
 * own question to Stripe: records the session's order (once per session id) and, the first
 * time it is paid, either delivers (a receipt with a download link to the buyer, a note to the
 * owner) or, when the payment does not match the product, holds it for review and tells the
 * owner. Run it inside a transaction: the order row stays locked until the commit, so two
 * deliveries of the same session cannot both fulfil it.
 */
export async function applySession(
  db: Kysely<Database>,
  settings: OrderSettings,
  session: CheckoutSession,
  outcome: 'paid' | 'pending' | 'failed',
): Promise<OrderChange> {
  const email = (session.customer_details?.email ?? session.customer_email ?? '').trim();
  const name = session.customer_details?.name?.trim() || null;
  // With the order: a refund or dispute of its payment that arrived before it did, and the
  // transaction's time.
  // The amount is checked against the store's versions: the version the session names
  // (metadata.store_version, set when the server created it), else every version on sale at
  // some moment of the last 24 hours (a buyer may pay a while after opening the checkout).
  const named = session.metadata?.store_version;
  const version = named ?? null;
  // The price before tax (Stripe Tax adds it on top of an exclusive price); a session without
  // a subtotal, or one with a discount no code of the store explains, is checked by its total.
  const discounted = (session.total_details?.amount_discount ?? 0) > 0;
  const charged =
    session.amount_subtotal != null && !discounted
      ? session.amount_subtotal
      : (session.amount_total ?? null);
  const created = session.created == null ? null : new Date(session.created * 1000).toISOString();
  const from = orderSource(session);
  const { rows } = await sql<
    OrderRow & {
      closing: string | null;
      now: Date;
      price_matches: boolean;
      expected: PriceCheck['expected'];
    }
  >`
    insert into orders (session_id, payment_intent, email, name, amount_total, currency,
      utm_source, utm_medium, utm_campaign, channel)
    values (${session.id}, ${session.payment_intent ?? null}, ${email}, ${name},
      ${session.amount_total ?? null}, ${session.currency?.toLowerCase() ?? null},
      ${from.utm_source}, ${from.utm_medium}, ${from.utm_campaign}, ${from.channel})
    on conflict (session_id) do update set
      utm_source = coalesce(orders.utm_source, excluded.utm_source),
      utm_medium = coalesce(orders.utm_medium, excluded.utm_medium),
      utm_campaign = coalesce(orders.utm_campaign, excluded.utm_campaign),
      channel = coalesce(orders.channel, excluded.channel),
      payment_intent = coalesce(orders.payment_intent, excluded.payment_intent),
      email = case when orders.email = '' then excluded.email else orders.email end,
      name = coalesce(orders.name, excluded.name),
      amount_total = coalesce(orders.amount_total, excluded.amount_total),
      currency = coalesce(orders.currency, excluded.currency)
    returning *, now() as now,
      (select type from payment_events e
        where e.payment_intent = orders.payment_intent and e.revokes
        order by e.received_at limit 1) as closing,
      (select v.content->'product' from store_versions v
        where v.version = coalesce(${version}::int, (select max(version) from store_versions))
      ) as expected,
      exists (
        select 1 from (
          select version, content, lead(published_at) over (order by version) as ended_at
          from store_versions
        ) v
        where v.content->'product'->>'currency' = orders.currency
          and (
            (v.content->'product'->>'priceCents')::bigint = ${charged}::bigint
            -- A sale's price, for a session created while the sale was live (its webhook or
            -- the buyer's payment may come after the end).
            or (
              (v.content->'product'->'sale'->>'priceCents')::bigint = ${charged}::bigint
              and ${created}::timestamptz is not null
              and ${created}::timestamptz < (v.content->'product'->'sale'->>'endsAt')::timestamptz
              and ${created}::timestamptz >= coalesce(
                (v.content->'product'->'sale'->>'startsAt')::timestamptz, '-infinity')
            )
          )
          and case when ${version}::int is null
            then v.ended_at is null or v.ended_at > now() - interval '24 hours'
            else v.version = ${version}::int end
      ) as price_matches`.execute(db);
  const { closing, now, price_matches, expected, ...order } = rows[0]!;
  if (outcome === 'pending') return { order, queued: false };
  if (outcome === 'failed') {
    if (order.status !== 'pending') return { order, queued: false };
    return { order: await setStatus(db, order.id, 'failed'), queued: false };
  }
  if (order.status !== 'pending' && order.status !== 'failed') return { order, queued: false };

  if (closing) {
    const closed = closing === 'charge.dispute.created' ? 'disputed' : 'refunded';
    return { order: await setStatus(db, order.id, closed, true), queued: false };
  }
  const problem = mismatch(order, { matches: price_matches, expected, named });
  if (!problem) {
    const paid = await fulfil(db, settings, order, now);
    // A buyer's follow-up sequence ends with the order, in its transaction.
    await endSequence(db, { email: paid.email }, 'purchase');
    return { order: paid, queued: true };
  }
  const updated = await setStatus(db, order.id, 'review', true);
  await queueDelivery(
    db,
    source(order),
    toOwner(settings, reviewOrderEmail(summary(settings, updated), problem)),
  );
  return { order: updated, queued: true };
}

async function setStatus(
  db: Kysely<Database>,
  id: number,
  status: OrderRow['status'],
  paid = false,
): Promise<OrderRow> {
  return db
    .updateTable('orders')
    .set({ status, updated_at: sql`now()`, ...(paid ? { paid_at: sql`now()` } : {}) })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * A whole refund or a dispute of a payment: its order's links close for good. The owner is
 * told of a dispute, which needs an answer in Stripe.
 */
export async function closeForPayment(
  db: Kysely<Database>,
  settings: OrderSettings,
  paymentIntent: string,
  status: 'refunded' | 'disputed',
): Promise<OrderChange> {
  const order = await db
    .updateTable('orders')
    .set({ status, updated_at: sql`now()` })
    .where('payment_intent', '=', paymentIntent)
    .where('status', 'not in', ['refunded', 'disputed'])
    .returningAll()
    .executeTakeFirst();
  if (!order) return { order: undefined, queued: false };
  await revokeLinks(db, [order.id]);
  if (status !== 'disputed') return { order, queued: false };
  await queueDelivery(
    db,
    source(order),
    toOwner(settings, disputedOrderEmail(summary(settings, order))),
  );
  return { order, queued: true };
}

/** Links a buyer may ask for in an hour, the first one included: enough, and no mail flood. */
const LINKS_PER_HOUR = 4;

/**
 * A buyer asked for a new link: the latest paid order of the address gets one, unless it had
 * LINKS_PER_HOUR already. Says whether an email was queued; the caller answers the same either
 * way, so a stranger learns nothing.
 */
export async function requestNewLink(
  db: Kysely<Database>,
  settings: OrderSettings,
  email: string,
): Promise<boolean> {
  const order = await db
    .selectFrom('orders')
    .selectAll()
    .where(sql<string>`lower(email)`, '=', email.toLowerCase())
    .where('status', '=', 'paid')
    .where('links_revoked_at', 'is', null)
    .where(({ eb, selectFrom }) =>
      eb(
        selectFrom('download_links')
          .select(({ fn }) => fn.countAll<number>().as('links'))
          .whereRef('download_links.order_id', '=', 'orders.id')
          .where('download_links.created_at', '>', sql<Date>`now() - interval '1 hour'`),
        '<',
        LINKS_PER_HOUR,
      ),
    )
    .orderBy('paid_at', 'desc')
    .limit(1)
    .forUpdate()
    .executeTakeFirst();
  if (!order) return false;
  await sendLink(db, settings, order, 'new-link');
  return true;
}
