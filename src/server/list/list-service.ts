import { sql, type Kysely, type Transaction } from 'kysely';
import type { Config } from '../config/load-config';
import type { Database } from '../db/schema';
import { newToken, TOKEN_PATTERN, tokenHash } from '../http/tokens';
import { deliveryRows } from '../mail/delivery-store';
import type { MailMessage } from '../mail/mail-message';
import type { StoreService } from '../store/store-plugin';
import type {
  ListEventKind,
  ListSource,
  ListStatus,
  UnsubscribeScope,
} from '../../shared/list/list-api';
import { endSequence, endSequenceOfBuyer } from '../sequence/sequence-end';
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

async function lockedByToken(
  trx: Tx,
  token: string,
  purpose: 'confirm' | 'unsubscribe',
): Promise<Subscriber | undefined> {
  if (!TOKEN_PATTERN.test(token)) return undefined;
  return trx
    .selectFrom('list_tokens')
    .innerJoin('list_subscribers', 'list_subscribers.id', 'list_tokens.subscriber_id')
    .select([
      'list_subscribers.id',
      'list_subscribers.email',
      'list_subscribers.name',
      'list_subscribers.status',
      'list_subscribers.unsubscribed_scope',
    ])
    .where('list_tokens.token_hash', '=', tokenHash(token))
    .where('list_tokens.purpose', '=', purpose)
    .forUpdate(['list_subscribers'])
    .executeTakeFirst();
}

/**
 * The list's one service (DESIGN.md "The mailing list"). Nobody becomes `confirmed` without a
 * click on a link only that address received, or Stripe's verified record of a buyer's opt-in;
 * every change is a consent event in the same transaction.
 */
export function createListService(deps: ListServiceDeps) {
  const { db, config, store } = deps;

  /** Confirms in the open transaction and queues the welcome email, the first list email. */
  async function confirmIn(
    trx: Tx,
    subscriber: Subscriber,
    source: string,
    version: number | null,
  ) {
    await trx
      .updateTable('list_subscribers')
      .set({
        status: 'confirmed',
        confirmed_at: new Date(),
        unsubscribed_at: null,
        unsubscribed_scope: null,
        updated_at: new Date(),
      })
      .where('id', '=', subscriber.id)
      .execute();
    const kind = inactive.has(subscriber.status) ? 're-subscribed' : 'confirmed';
    await recordEvent(trx, subscriber.id, kind, source, version);
    // Someone who already bought (a checkout's opt-in, an earlier order) gets no sequence.
    await endSequenceOfBuyer(trx, subscriber.id);
    await trx
      .deleteFrom('list_tokens')
      .where('subscriber_id', '=', subscriber.id)
      .where('purpose', '=', 'confirm')
      .execute();
    const unsubscribe = await issueToken(trx, subscriber.id, 'unsubscribe');
    await queue(
      trx,
      subscriber.id,
      welcomeEmail(config, store.published().content, subscriber, unsubscribe),
    );
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

    /** The confirm page's button. False when the token names no one (the page is the same). */
    async confirm(token: string): Promise<boolean> {
      const done = await db.transaction().execute(async (trx) => {
        const subscriber = await lockedByToken(trx, token, 'confirm');
        if (!subscriber) return false;
        if (subscriber.status === 'confirmed') return true;
        const asked = await trx
          .selectFrom('list_consent_events')
          .select('wording_version')
          .where('subscriber_id', '=', subscriber.id)
          .where('kind', 'in', ['asked', 'imported'])
          .orderBy('id', 'desc')
          .limit(1)
          .executeTakeFirst();
        await confirmIn(trx, subscriber, 'confirmation link', asked?.wording_version ?? null);
        return true;
      });
      if (done) deps.wakeWorker();
      return done;
    },

    /**
     * The unsubscribe link (the page's button or a mail provider's one-click POST): the
     * address leaves the list, and its list emails not yet sent are dropped, in one
     * transaction. `scope` is the page's choice (one-click means `list`); `everything` also
     * stops requests to join, and can be chosen after an earlier `list`. Each change is an
     * `unsubscribed` event whose source names the way and the choice. False when the token
     * names no one (the answer is the same).
     */
    async unsubscribe(
      token: string,
      via: string,
      scope: UnsubscribeScope = 'list',
    ): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const subscriber = await lockedByToken(trx, token, 'unsubscribe');
        if (!subscriber) return false;
        const source = scope === 'everything' ? `${via}: everything` : via;
        if (subscriber.status === 'confirmed' || subscriber.status === 'pending') {
          await trx
            .updateTable('list_subscribers')
            .set({
              status: 'unsubscribed',
              unsubscribed_at: new Date(),
              unsubscribed_scope: scope,
              updated_at: new Date(),
            })
            .where('id', '=', subscriber.id)
            .execute();
          await recordEvent(trx, subscriber.id, 'unsubscribed', source, null);
          await endSequence(trx, { subscriberId: subscriber.id }, 'unsubscribed');
        } else if (scope === 'everything' && subscriber.unsubscribed_scope !== 'everything') {
          // Already off the list (unsubscribed, bounced or complained): the wider choice counts.
          await trx
            .updateTable('list_subscribers')
            .set({ unsubscribed_scope: 'everything', updated_at: new Date() })
            .where('id', '=', subscriber.id)
            .execute();
          await recordEvent(trx, subscriber.id, 'unsubscribed', source, null);
        }
        await trx
          .deleteFrom('mail_deliveries')
          .where('source_table', '=', LIST_SOURCE_TABLE)
          .where('source_id', '=', subscriber.id)
          .where('status', '=', 'pending')
          .execute();
        await trx
          .deleteFrom('list_tokens')
          .where('subscriber_id', '=', subscriber.id)
          .where('purpose', '=', 'confirm')
          .execute();
        return true;
      });
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
