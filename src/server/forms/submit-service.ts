import type { FastifyBaseLogger } from 'fastify';
import { sql, type ColumnType, type Generated, type Kysely } from 'kysely';
import type { Config } from '../config/load-config';
import type { Database, MailDelivery } from '../db/schema';
import { isDatabaseUnavailable } from '../http/errors';
import {
  deliveryColumns,
  fromNow,
  markFailed,
  markSent,
  renewClaims,
} from '../mail/delivery-store';
import { leaseFor, replyLeaseFor } from '../mail/delivery-worker';
import type { Mailer } from '../mail/mailer';
import { sendAnswering } from '../mail/send-answering';
import { HONEYPOT_FIELD, type FormKind } from '../../shared/forms/form-fields';
import { firstIssue, type FormInput } from '../../shared/forms/form-schemas';
import { formDefinition, type FormDefinition } from './form-definitions';
import type { ListService } from '../list/list-service';
import type { StoreService } from '../store/store-plugin';
import { LIST_CONSENT_FIELD } from '../../shared/list/list-api';

export type SubmitResult =
  | { status: 'success'; emailSent: boolean; guideUrl?: string }
  | { status: 'duplicate'; guideUrl?: string }
  /** The visitor's input was refused; `message` says why, for the form to show. */
  | { status: 'invalid'; message: string }
  /** A database step failed; `unavailable` when the database cannot be reached. */
  | { status: 'error'; reason: 'unavailable' | 'failed' };

export type FormServiceDeps = {
  db: Kysely<Database>;
  mailer: Mailer;
  config: Config;
  /** The live store content: the free guide is its file when it names one. */
  store: Pick<StoreService, 'published'>;
  /** Tells the delivery worker a new email is queued, so it sends it now, not at its next poll. */
  wakeWorker(): void;
  /** The mailing list, asked when the free-guide form carries `listConsent: true`. */
  list?: Pick<ListService, 'ask'>;
};

/** The columns the submit flow touches, common to the four tables the forms write. */
type SubmissionRow = {
  id: Generated<number>;
  name: string;
  email: string;
  message: ColumnType<string, string | undefined, string>;
  purchase_intent: ColumnType<boolean, boolean | undefined, boolean>;
  email_sent: boolean;
  email_sent_at: ColumnType<Date | null, Date | null, Date | null>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
};
type SubmissionDb = Record<FormDefinition['table'], SubmissionRow> & {
  mail_deliveries: MailDelivery;
};

/** The free-guide form's consent box was ticked: exactly `true`, nothing else counts. */
function listConsentGiven(body: unknown): boolean {
  return (
    typeof body === 'object' &&
    body !== null &&
    (body as Record<string, unknown>)[LIST_CONSENT_FIELD] === true
  );
}

function honeypotFilled(body: unknown): boolean {
  if (typeof body !== 'object' || body === null) return false;
  const value = (body as Record<string, unknown>)[HONEYPOT_FIELD];
  return value !== undefined && value !== null && value !== '' && value !== false;
}

/**
 * The one submit flow of every visitor form (SPEC.md §4): validate → duplicate check →
 * insert with email_sent false, together with its queued email (DESIGN.md "Mail delivery").
 * The free-guide popup then makes the first attempt to notify the owner itself, bounded by
 * MAIL_TIMEOUT_MS, and records the outcome, because its answer depends on it; the other forms
 * answer at once (`emailSent: false`, not yet sent) and the worker sends the email moments
 * later, so no visitor waits for a mail server. A failed or slow email never fails the
 * submission: the worker retries it. Any database failure does.
 */
export function createFormService(deps: FormServiceDeps) {
  // The four tables share these columns; the definitions decide which of them a form writes.
  const db = deps.db as unknown as Kysely<SubmissionDb>;

  /**
   * The form's own flow, then, for a free-guide request with the consent box ticked, the
   * list's: the guide's answer is the same either way, and a failure of the list's step is
   * logged, never shown (the guide is never conditional on the list).
   */
  async function submit<K extends FormKind>(
    form: K,
    body: unknown,
    log: FastifyBaseLogger,
  ): Promise<SubmitResult> {
    const result = await submitRecord(form, body, log);
    if (
      form === 'free-guide' &&
      deps.list &&
      (result.status === 'success' || result.status === 'duplicate') &&
      listConsentGiven(body) &&
      !honeypotFilled(body)
    ) {
      const parsed = formDefinition('free-guide').schema.safeParse(body);
      if (parsed.success) {
        await deps.list
          .ask({ ...parsed.data, source: 'free-guide', via: 'free-guide form' })
          .catch((error: unknown) =>
            log.error({ err: error }, 'Could not record a list consent from the free-guide form'),
          );
      }
    }
    return result;
  }

  async function submitRecord<K extends FormKind>(
    form: K,
    body: unknown,
    log: FastifyBaseLogger,
  ): Promise<SubmitResult> {
    const definition = formDefinition(form);
    const content = deps.store.published().content;
    const extra = definition.extra?.(deps.config, content);
    if (honeypotFilled(body)) {
      log.info({ form }, 'Form submission dropped: the honeypot field was filled');
      return { status: 'success', emailSent: true, ...extra };
    }
    const parsed = definition.schema.safeParse(body);
    if (!parsed.success) return { status: 'invalid', message: firstIssue(parsed.error) };
    const input = parsed.data as FormInput<K>;
    const { table } = definition;

    try {
      const duplicate = await db
        .selectFrom(table)
        .select('id')
        .where(sql<string>`lower(email)`, '=', input.email.toLowerCase())
        .where('email_sent', '=', true)
        .limit(1)
        .executeTakeFirst();
      if (duplicate) return { status: 'duplicate', ...extra };

      const submittedAt = new Date();
      const message = {
        to: [deps.config.ownerEmail],
        replyTo: input.email,
        ...definition.notification(input, { submittedAt, productName: content.product.name }),
      };
      // One statement writes the record and its queued email, so neither exists without the
      // other. A request that sends the email itself holds the delivery (attempt 1, leased)
      // while it tries; if the process dies first, the lease expires and a worker sends it.
      const inline = definition.answersAfterEmail === true;
      const { id, delivery } = await db
        .with('record', (q) =>
          q
            .insertInto(table)
            .values({
              name: input.name,
              email: input.email,
              ...definition.columns(input),
              email_sent: false,
              email_sent_at: null,
            })
            .returning('id'),
        )
        .insertInto('mail_deliveries')
        .columns([
          'source_table',
          'source_id',
          'recipient',
          'reply_to',
          'subject',
          'html',
          'text',
          'attempts',
          'locked_until',
        ])
        .expression((eb) => {
          const columns = deliveryColumns({ table }, message);
          return eb
            .selectFrom('record')
            .select([
              eb.val(columns.source_table).as('source_table'),
              'record.id as source_id',
              eb.val(columns.recipient).as('recipient'),
              eb.val(columns.reply_to).as('reply_to'),
              eb.val(columns.subject).as('subject'),
              eb.val(columns.html).as('html'),
              eb.val(columns.text).as('text'),
              eb.val(inline ? 1 : 0).as('attempts'),
              (inline
                ? fromNow(leaseFor(deps.config.mailTimeoutMs))
                : sql<Date | null>`null::timestamptz`
              ).as('locked_until'),
            ]);
        })
        .returning(['source_id as id', 'id as delivery'])
        .executeTakeFirstOrThrow();
      if (!inline) {
        deps.wakeWorker();
        return { status: 'success', emailSent: false, ...extra };
      }

      // The visitor waits at most MAIL_TIMEOUT_MS: a send then waiting for the server's reply
      // to the whole message goes on after the answer and records its outcome itself.
      const { answer, result } = sendAnswering(deps.mailer, message, deps.config.mailTimeoutMs);
      const recorded = result.then(async (sent) => {
        if (sent.status === 'sent') {
          await markSent(deps.db, [{ id: delivery, source_table: table }]);
          return true;
        }
        log.warn(
          { form, table, id, delivery },
          'Owner notification failed; stored with email_sent false and queued for a retry',
        );
        await markFailed(
          deps.db,
          { id: delivery, attempts: 1 },
          sent.error,
          deps.config.mailRetryDelaysMs,
        );
        return false;
      });
      if ((await answer) === undefined) {
        recorded.catch((error: unknown) =>
          log.error(
            { err: error, form, table, delivery },
            'Could not record the owner notification; its claim runs out and it is retried',
          ),
        );
        // The claim covered the send up to MAIL_TIMEOUT_MS; a process killed meanwhile leaves
        // it to a worker soon after. Now it must cover the wait for the reply too.
        renewClaims(deps.db, [{ id: delivery }], replyLeaseFor(deps.config.mailTimeoutMs)).catch(
          (error: unknown) =>
            log.warn({ err: error, delivery }, 'Could not extend the claim of an email being sent'),
        );
        return { status: 'success', emailSent: false, ...extra };
      }
      return { status: 'success', emailSent: await recorded, ...extra };
    } catch (error) {
      const unavailable = isDatabaseUnavailable(error);
      log.error(
        { err: error, form, table },
        `Form submission failed: ${unavailable ? 'database unavailable' : 'database error'}`,
      );
      return { status: 'error', reason: unavailable ? 'unavailable' : 'failed' };
    }
  }

  return { submit };
}
