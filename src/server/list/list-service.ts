import { sql, type Kysely, type Transaction } from 'kysely';
import type { Config } from '../config/load-config';
import type { Database } from '../db/schema';
import { newToken, TOKEN_PATTERN, tokenHash } from '../http/tokens';
import { deliveryColumns, deliveryRows } from '../mail/delivery-store';
import type { MailMessage } from '../mail/mail-message';
import type { StoreService } from '../store/store-plugin';
import type {
  ListEventKind,
  ListSource,
  ListStatus,
  UnsubscribeScope,
} from '../../shared/list/list-api';
import { paidOrderOf, skipQueuedSteps } from './sequence-end';
import { confirmationEmail, welcomeEmail } from './list-emails';

/** The table name list emails are queued under (mail_deliveries.source_table). */
export const LIST_SOURCE_TABLE = 'list_subscribers';

/** A pending subscriber asking again within this time gets no second confirmation email. */
const CONFIRMATION_RESEND_MS = 10 * 60_000;

export type ListServiceDeps = {
  db: Kysely<Database>;
  config: Pick<Config, 'publicUrl' | 'mailFrom' | 'guideUrl'>;
  store: Pick<StoreService, 'published'>;
  /** Tells the delivery worker an email is queued; called after the transaction commits. */
  wakeWorker(): void;
};

type Tx = Transaction<Database>;
type Subscriber = {
  id: number;
  email: string;
  name: string;
  status: ListStatus;
  unsubscribed_scope: UnsubscribeScope | null;
};

const inactive = new Set(['unsubscribed', 'bounced', 'complained']);

/** The consent wording a confirmation is recorded under: a store version, or the last asked. */
type WordingVersion = number | null | 'last asked';

async function recordEvent(
  trx: Tx,
  subscriberId: number,
  kind: ListEventKind,
  source: string,
  wordingVersion: number | null,
) {
  await trx
    .insertInto('list_consent_events')
    .values({ subscriber_id: subscriberId, kind, source, wording_version: wordingVersion })
    .execute();
}

async function queue(trx: Tx, subscriberId: number, message: MailMessage) {
  await trx
    .insertInto('mail_deliveries')
    .values(deliveryRows({ table: LIST_SOURCE_TABLE, id: subscriberId }, [message]))
    .execute();
}

async function issueToken(trx: Tx, subscriberId: number, purpose: 'confirm' | 'unsubscribe') {
  const token = newToken();
  await trx
    .insertInto('list_tokens')
    .values({ token_hash: tokenHash(token), subscriber_id: subscriberId, purpose })
    .execute();
  return token;
}

async function lockedByEmail(trx: Tx, email: string): Promise<Subscriber | undefined> {
  return trx
    .selectFrom('list_subscribers')
    .select(['id', 'email', 'name', 'status', 'unsubscribed_scope'])
    .where(sql<string>`lower(email)`, '=', email.toLowerCase())
    .forUpdate()
    .executeTakeFirst();
}

/**
 * The subscriber a link names (`lock`: its row locked for the open transaction). Written out
 * rather than built: it runs on every click of a link, and building it cost more than running it.
 */
async function byToken(
  executor: Kysely<Database>,
  token: string,
  purpose: 'confirm' | 'unsubscribe',
  { lock = false } = {},
): Promise<Subscriber | undefined> {
  const { rows } = await sql<Subscriber>`
    select s.id, s.email, s.name, s.status, s.unsubscribed_scope
    from list_tokens t join list_subscribers s on s.id = t.subscriber_id
    where t.token_hash = ${tokenHash(token)} and t.purpose = ${purpose}
    ${lock ? sql`for update of s` : sql``}`.execute(executor);
  return rows[0];
}

/**
 * The list's one service (DESIGN.md "The mailing list"). Nobody becomes `confirmed` without a
 * click on a link only that address received, or Stripe's verified record of a buyer's opt-in;
 * every change is a consent event in the same transaction.
 */
export function createListService(deps: ListServiceDeps) {
  const { db, config, store } = deps;

  /**
   * Confirms `subscriber` and queues the welcome email (the first list email) in one
   * statement, so it is one transaction on its own or a part of the caller's: the status, the
   * consent event, the spent confirmation links, the new unsubscribe link and the email row.
   * It acts only while the row still holds what was read (status, address and name, which the
   * email was rendered from): false when it changed meanwhile, and nothing was written.
   */
  async function confirmIn(
    executor: Kysely<Database>,
    subscriber: Subscriber,
    source: string,
    version: WordingVersion,
  ): Promise<boolean> {
    const unsubscribe = newToken();
    const mail = deliveryColumns(
      { table: LIST_SOURCE_TABLE },
      welcomeEmail(config, store.published().content, subscriber, unsubscribe),
    );
    const kind: ListEventKind = inactive.has(subscriber.status) ? 're-subscribed' : 'confirmed';
    const wording =
      version === 'last asked'
        ? sql`(select e.wording_version from list_consent_events e
            where e.subscriber_id = confirmed.id and e.kind in ('asked', 'imported')
            order by e.id desc limit 1)`
        : sql`${version}::integer`;
    const { rows } = await sql<{ confirmed: number }>`
      with confirmed as (
        update list_subscribers
        set status = 'confirmed', confirmed_at = now(), unsubscribed_at = null,
          unsubscribed_scope = null, updated_at = now(),
          -- Someone who already bought (a checkout's opt-in, an earlier order) gets no
          -- follow-up sequence: it ends here, as at the order (sequence-end.ts).
          sequence_ended_at = case when sequence_ended_at is null and ${paidOrderOf(sql`list_subscribers.email`)}
            then now() else sequence_ended_at end,
          sequence_end_reason = case when sequence_ended_at is null and ${paidOrderOf(sql`list_subscribers.email`)}
            then 'purchase' else sequence_end_reason end
        where id = ${subscriber.id} and status = ${subscriber.status}
          and email = ${subscriber.email} and name = ${subscriber.name}
        returning id),
      event as (
        insert into list_consent_events (subscriber_id, kind, source, wording_version)
        select confirmed.id, ${kind}, ${source}, ${wording} from confirmed),
      spent as (
        delete from list_tokens
        where subscriber_id in (select id from confirmed) and purpose = 'confirm'),
      link as (
        insert into list_tokens (token_hash, subscriber_id, purpose)
        select ${tokenHash(unsubscribe)}, id, 'unsubscribe' from confirmed),
      welcome as (
        insert into mail_deliveries
          (source_table, source_id, recipient, reply_to, subject, html, text, headers)
        select ${mail.source_table}, id, ${mail.recipient}, ${mail.reply_to}, ${mail.subject},
          ${mail.html}, ${mail.text}, ${mail.headers}::jsonb
        from confirmed)
      select count(*)::integer as confirmed from confirmed`.execute(executor);
    return rows[0]!.confirmed === 1;
  }

  return {
    /**
     * A visitor ticked the consent box: a `pending` subscriber (or the existing one) with an
     * `asked` event under the wording version shown, and a confirmation email. A confirmed
     * address is left as it is (no email: nothing to tell a stranger).
     */
    async ask(input: { email: string; name: string; source: ListSource; via: string }) {
      const { version, content } = store.published();
      const queued = await db.transaction().execute(async (trx) => {
        let subscriber = await lockedByEmail(trx, input.email);
        if (subscriber?.status === 'confirmed') return false;
        // Whoever owns the address asked for no more requests to join: none is sent.
        if (subscriber?.unsubscribed_scope === 'everything') return false;
        if (!subscriber) {
          const inserted = await trx
            .insertInto('list_subscribers')
            .values({ email: input.email, name: input.name, source: input.source })
            .onConflict((conflict) => conflict.expression(sql`lower(email)`).doNothing())
            .returning(['id', 'email', 'name', 'status', 'unsubscribed_scope'])
            .executeTakeFirst();
          // Another request created it meanwhile: take that one.
          subscriber = inserted ?? (await lockedByEmail(trx, input.email));
          if (!subscriber) return false;
        }
        await recordEvent(trx, subscriber.id, 'asked', input.via, version);
        const recent = await trx
          .selectFrom('list_tokens')
          .select('token_hash')
          .where('subscriber_id', '=', subscriber.id)
          .where('purpose', '=', 'confirm')
          .where('created_at', '>', new Date(Date.now() - CONFIRMATION_RESEND_MS))
          .executeTakeFirst();
        if (recent) return false;
        const token = await issueToken(trx, subscriber.id, 'confirm');
        await queue(
          trx,
          subscriber.id,
          confirmationEmail(config, content, { email: subscriber.email, name: input.name }, token),
        );
        return true;
      });
      if (queued) deps.wakeWorker();
    },

    /**
     * The confirm page's button. False when the token names no one (the page is the same).
     * The link's subscriber is read, the welcome email rendered, and one statement confirms
     * and queues it if the row is still as read; only when another request changed it meanwhile
     * is it done again under the row's lock.
     */
    async confirm(token: string): Promise<boolean> {
      if (!TOKEN_PATTERN.test(token)) return false;
      const subscriber = await byToken(db, token, 'confirm');
      if (!subscriber) return false;
      if (subscriber.status === 'confirmed') return true;
      let done = await confirmIn(db, subscriber, 'confirmation link', 'last asked');
      done ||= await db.transaction().execute(async (trx) => {
        const locked = await byToken(trx, token, 'confirm', { lock: true });
        if (!locked) return false;
        if (locked.status === 'confirmed') return true;
        return confirmIn(trx, locked, 'confirmation link', 'last asked');
      });
      if (done) deps.wakeWorker();
      return done;
    },

    /**
     * The unsubscribe link (the page's button or a mail provider's one-click POST): the
     * address leaves the list, and its list emails not yet sent are dropped, in one
     * transaction (one statement, the subscriber's row locked first). `scope` is the page's
     * choice (one-click means `list`); `everything` also stops requests to join, and can be
     * chosen after an earlier `list`. Each change is an `unsubscribed` event whose source names
     * the way and the choice. False when the token names no one (the answer is the same).
     */
    async unsubscribe(
      token: string,
      via: string,
      scope: UnsubscribeScope = 'list',
    ): Promise<boolean> {
      if (!TOKEN_PATTERN.test(token)) return false;
      const source = scope === 'everything' ? `${via}: everything` : via;
      // On the list (confirmed or pending) it leaves; already off it (unsubscribed, bounced or
      // complained), only the wider choice counts.
      const { rows } = await sql<{ found: number }>`
        with target as (
          select s.id, s.status, s.unsubscribed_scope
          from list_tokens t join list_subscribers s on s.id = t.subscriber_id
          where t.token_hash = ${tokenHash(token)} and t.purpose = 'unsubscribe'
          for update of s),
        changed as (
          update list_subscribers s
          set status = case when target.status in ('confirmed', 'pending')
              then 'unsubscribed' else s.status end,
            unsubscribed_at = case when target.status in ('confirmed', 'pending')
              then now() else s.unsubscribed_at end,
            unsubscribed_scope = ${scope}, updated_at = now(),
            -- Leaving the list ends the follow-up sequence for good (sequence-end.ts).
            sequence_ended_at = case when target.status in ('confirmed', 'pending')
              then coalesce(s.sequence_ended_at, now()) else s.sequence_ended_at end,
            sequence_end_reason = case when target.status in ('confirmed', 'pending')
              then coalesce(s.sequence_end_reason, 'unsubscribed') else s.sequence_end_reason end
          from target
          where s.id = target.id and (target.status in ('confirmed', 'pending')
            or (${scope} = 'everything' and target.unsubscribed_scope is distinct from 'everything'))
          returning s.id),
        event as (
          insert into list_consent_events (subscriber_id, kind, source, wording_version)
          select id, 'unsubscribed', ${source}, null from changed),
        unsent as (
          delete from mail_deliveries
          where source_table = ${LIST_SOURCE_TABLE} and source_id in (select id from target)
            and status = 'pending'),
        spent as (
          delete from list_tokens
          where subscriber_id in (select id from target) and purpose = 'confirm'),
        steps as (
          ${skipQueuedSteps(sql`(select id from changed)`, 'unsubscribed')})
        select count(*)::integer as found from target`.execute(db);
      return rows[0]!.found === 1;
    },

    /**
     * A buyer who ticked Stripe Checkout's promotional consent: confirmed from the verified
     * webhook (Stripe's record of the tick is the proof), source `checkout`, inside the
     * webhook's own transaction (a replayed event changes nothing). True when the welcome
     * email was queued: the caller wakes the worker after its commit.
     */
    async confirmBuyerIn(
      trx: Tx,
      input: { email: string; name: string; storeVersion: number | null },
    ): Promise<boolean> {
      let subscriber = await lockedByEmail(trx, input.email);
      if (subscriber?.status === 'confirmed') return false;
      subscriber ??= await trx
        .insertInto('list_subscribers')
        .values({ email: input.email, name: input.name, source: 'checkout' })
        .returning(['id', 'email', 'name', 'status', 'unsubscribed_scope'])
        .executeTakeFirstOrThrow();
      await confirmIn(trx, subscriber, 'checkout webhook', input.storeVersion);
      return true;
    },
  };
}

export type ListService = ReturnType<typeof createListService>;

/**
 * A list email the mail server refused for good (SMTP 5xx on RCPT or DATA): the subscriber is
 * `bounced`, with its event. True when the delivery was a list email, so it is not retried;
 * order mail and codes to the address still go.
 */
export async function markListBounced(
  db: Kysely<Database>,
  delivery: { source_table: string; source_id: number },
): Promise<boolean> {
  if (delivery.source_table !== LIST_SOURCE_TABLE) return false;
  await db.transaction().execute(async (trx) => {
    const changed = await trx
      .updateTable('list_subscribers')
      .set({ status: 'bounced', updated_at: new Date() })
      .where('id', '=', delivery.source_id)
      .where('status', 'in', ['pending', 'confirmed'])
      .returning('id')
      .executeTakeFirst();
    if (changed) await recordEvent(trx, changed.id, 'bounced', 'mail server', null);
  });
  return true;
}

/**
 * A mail provider's signed event (the HTTP mail API's webhook): a permanent bounce marks the
 * address's subscriber `bounced`, a complaint `complained`, each with its event, and drops its
 * list emails not yet sent, in one transaction. A complaint also counts after an unsubscribe
 * or a bounce (it is the stronger record). True when a subscriber changed. Transactional mail
 * (receipts, links, codes) is not list mail and still goes to the address.
 */
export async function markListFromProvider(
  db: Kysely<Database>,
  event: { kind: 'bounced' | 'complained'; recipient: string },
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const subscriber = await lockedByEmail(trx, event.recipient.trim());
    if (!subscriber) return false;
    const from: ListStatus[] =
      event.kind === 'bounced'
        ? ['pending', 'confirmed']
        : ['pending', 'confirmed', 'unsubscribed', 'bounced'];
    if (!from.includes(subscriber.status)) return false;
    await trx
      .updateTable('list_subscribers')
      .set({ status: event.kind, updated_at: new Date() })
      .where('id', '=', subscriber.id)
      .execute();
    await recordEvent(trx, subscriber.id, event.kind, 'mail provider webhook', null);
    await trx
      .deleteFrom('mail_deliveries')
      .where('source_table', '=', LIST_SOURCE_TABLE)
      .where('source_id', '=', subscriber.id)
      .where('status', '=', 'pending')
      .execute();
    return true;
  });
}
