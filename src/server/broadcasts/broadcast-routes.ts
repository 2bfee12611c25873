import type { FastifyPluginAsync } from 'fastify';
import { sql, type Kysely, type Selectable } from 'kysely';
import {
  ADMIN_BROADCAST_PREVIEW_DOCUMENT_PATH,
  ADMIN_BROADCASTS_PATH,
  broadcastDraftSchema,
  broadcastSendSchema,
  type AdminBroadcast,
  type BroadcastStatus,
  type EmailPreview,
} from '../../shared/broadcasts/broadcasts-api';
import { audited } from '../admin/audit/audit-log';
import { sanitizeRichText } from '../admin/tables/sanitize-rich-text';
import type { Broadcast, Database } from '../db/schema';
import { HttpError } from '../http/errors';
import { idParam, parsedOr400 } from '../http/input';
import { newToken } from '../http/tokens';
import { previewEmail, requireSender as requireSenderOf, sendTestEmail } from './admin-emails';
import { acceptPreviewForms, previewFormDraft, sendPreviewDocument } from './preview-document';
import { sendResults, type ResultsWithRate } from './send-results';

const PREFIX = ADMIN_BROADCASTS_PATH.replace('/api/admin', '');

const iso = (value: Date | null) => (value ? value.toISOString() : null);

/** The campaign name of a broadcast in its links: its subject's words, and its id. */
export function slugFor(subject: string, id: number): string {
  const words = subject
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 48)
    .replace(/-+$/, '');
  return words ? `${words}-${id}` : `broadcast-${id}`;
}

/** Progress and results as the admin shows them, with the rate and the estimated end. */
export function toAdmin(row: Selectable<Broadcast>, results: ResultsWithRate): AdminBroadcast {
  const { sentLastMinute, ...counts } = results;
  let ratePerSecond: number | null = null;
  let estimatedEnd: string | null = null;
  if (row.status === 'sending' && row.started_at) {
    const seconds = Math.min(60, Math.max(1, (Date.now() - row.started_at.getTime()) / 1000));
    ratePerSecond = Math.round((sentLastMinute / seconds) * 10) / 10;
    if (ratePerSecond > 0) {
      estimatedEnd = new Date(Date.now() + (counts.remaining / ratePerSecond) * 1000).toISOString();
    }
  }
  return {
    ...counts,
    id: Number(row.id),
    slug: row.slug,
    subject: row.subject,
    preheader: row.preheader,
    html: row.html,
    excludeBuyers: row.exclude_buyers,
    status: row.status,
    scheduledAt: iso(row.scheduled_at),
    startedAt: iso(row.started_at),
    finishedAt: iso(row.finished_at),
    createdAt: row.created_at.toISOString(),
    ratePerSecond,
    estimatedEnd,
  };
}

async function adminBroadcast(db: Kysely<Database>, id: number): Promise<AdminBroadcast> {
  const row = await db
    .selectFrom('broadcasts')
    .selectAll()
    .where('id', '=', id)
    .where('kind', '=', 'broadcast')
    .executeTakeFirst();
  if (!row) throw new HttpError(404, 'No such broadcast.');
  const results = await sendResults(db, [id]);
  return toAdmin(row, results.get(id)!);
}

function parsedDraft(body: unknown) {
  const draft = parsedOr400(broadcastDraftSchema, body);
  return { ...draft, html: sanitizeRichText(draft.html) };
}

/**
 * The admin's Broadcasts (DESIGN.md "The mailing list"), in the /api/admin scope: its guard
 * checks the session and the PUBLIC_URL origin of every write; writes are in the activity
 * log. Starting one only sets its state: every instance's list sender takes its audience and
 * sends it.
 */
export const broadcastRoutes: FastifyPluginAsync = async (scope) => {
  const { db } = scope.database;

  const requireSender = () => requireSenderOf(scope.store.published().content.sender);

  /**
   * Moves a broadcast from one of `from` to `to` (with more columns), audited; 409 when it is
   * in another state, 404 when there is none.
   */
  async function transition(
    id: number,
    adminEmail: string,
    from: BroadcastStatus[],
    set: Partial<Record<keyof Broadcast, unknown>> & { status: BroadcastStatus },
    message: string,
  ): Promise<void> {
    const changed = await db.transaction().execute((trx) =>
      audited(trx, { adminEmail, action: 'update', tableName: 'broadcasts', rowIds: [id] }, () =>
        trx
          .updateTable('broadcasts')
          .set({ ...set, updated_at: new Date() } as never)
          .where('id', '=', id)
          .where('kind', '=', 'broadcast')
          .where('status', 'in', from)
          .returning('id')
          .executeTakeFirst()
          .then(async (row) => {
            // A cancelled broadcast's messages not yet sent are given up.
            if (row && set.status === 'cancelled') {
              await trx
                .updateTable('broadcast_recipients')
                .set({ status: 'skipped', locked_until: null })
                .where('broadcast_id', '=', id)
                .where('status', '=', 'pending')
                // Sends in flight are recorded as they end.
                .where((where) =>
                  where.or([
                    where('locked_until', 'is', null),
                    where('locked_until', '<=', new Date()),
                  ]),
                )
                .execute();
            }
            return row ?? null;
          }),
      ),
    );
    if (!changed) {
      await adminBroadcast(db, id); // 404 when there is none
      throw new HttpError(409, message);
    }
  }

  scope.get(PREFIX, async (): Promise<{ rows: AdminBroadcast[] }> => {
    const rows = await db
      .selectFrom('broadcasts')
      .selectAll()
      .where('kind', '=', 'broadcast')
      .orderBy('id', 'desc')
      .limit(500)
      .execute();
    const results = await sendResults(
      db,
      rows.map((row) => Number(row.id)),
    );
    return { rows: rows.map((row) => toAdmin(row, results.get(Number(row.id))!)) };
  });

  scope.post(PREFIX, async (request, reply) => {
    const draft = parsedDraft(request.body);
    const id = await db.transaction().execute((trx) =>
      audited(
        trx,
        {
          adminEmail: request.admin!.email,
          action: 'create',
          tableName: 'broadcasts',
          rowIds: (created: number) => [created],
        },
        async () => {
          const row = await trx
            .insertInto('broadcasts')
            .values({
              kind: 'broadcast',
              slug: `new-${newToken()}`,
              subject: draft.subject,
              preheader: draft.preheader,
              html: draft.html,
              exclude_buyers: draft.excludeBuyers,
              created_by: request.admin!.email,
            })
            .returning('id')
            .executeTakeFirstOrThrow();
          const created = Number(row.id);
          await trx
            .updateTable('broadcasts')
            .set({ slug: slugFor(draft.subject, created) })
            .where('id', '=', created)
            .execute();
          return created;
        },
      ),
    );
    return reply.code(201).send({ id });
  });

  scope.post(`${PREFIX}/test`, async (request): Promise<{ sentTo: string }> => {
    const draft = parsedDraft(request.body);
    const { sender } = scope.store.published().content;
    return sendTestEmail(scope, sender, { ...draft, slug: 'test' }, request.admin!.email);
  });

  scope.post(`${PREFIX}/preview`, async (request): Promise<EmailPreview> => {
    const draft = parsedDraft(request.body);
    const { sender } = scope.store.published().content;
    return previewEmail(scope.config, sender, { ...draft, slug: 'preview' });
  });

  acceptPreviewForms(scope);
  scope.post(
    ADMIN_BROADCAST_PREVIEW_DOCUMENT_PATH.replace('/api/admin', ''),
    async (request, reply) => {
      const draft = parsedDraft(previewFormDraft(request.body));
      const { sender } = scope.store.published().content;
      const { html } = previewEmail(scope.config, sender, { ...draft, slug: 'preview' });
      return sendPreviewDocument(reply, html);
    },
  );

  scope.get(`${PREFIX}/:id`, async (request) => {
    const { id } = parsedOr400(idParam, request.params);
    return adminBroadcast(db, id);
  });

  scope.put(`${PREFIX}/:id`, async (request) => {
    const { id } = parsedOr400(idParam, request.params);
    const draft = parsedDraft(request.body);
    await transition(
      id,
      request.admin!.email,
      ['draft', 'scheduled'],
      {
        status: 'draft',
        subject: draft.subject,
        preheader: draft.preheader,
        html: draft.html,
        exclude_buyers: draft.excludeBuyers,
        slug: slugFor(draft.subject, id),
      },
      'Only a draft or a scheduled broadcast can be edited.',
    );
    // Editing a scheduled one keeps its time.
    await db
      .updateTable('broadcasts')
      .set({ status: 'scheduled' })
      .where('id', '=', id)
      .where('scheduled_at', 'is not', null)
      .where('started_at', 'is', null)
      .where('status', '=', 'draft')
      .execute();
    return adminBroadcast(db, id);
  });

  scope.delete(`${PREFIX}/:id`, async (request, reply) => {
    const { id } = parsedOr400(idParam, request.params);
    const deleted = await db.transaction().execute((trx) =>
      audited(
        trx,
        {
          adminEmail: request.admin!.email,
          action: 'delete',
          tableName: 'broadcasts',
          rowIds: [id],
          keepBefore: true,
        },
        () =>
          trx
            .deleteFrom('broadcasts')
            .where('id', '=', id)
            .where('kind', '=', 'broadcast')
            .where('status', 'in', ['draft', 'scheduled'])
            .returning('id')
            .executeTakeFirst()
            .then((row) => row ?? null),
      ),
    );
    if (!deleted) {
      await adminBroadcast(db, id);
      throw new HttpError(409, 'Only a draft or a scheduled broadcast can be deleted.');
    }
    return reply.code(204).send();
  });

  scope.post(`${PREFIX}/:id/send`, async (request) => {
    const { id } = parsedOr400(idParam, request.params);
    const { at } = parsedOr400(broadcastSendSchema, request.body ?? {});
    await adminBroadcast(db, id);
    requireSender();
    const later = at !== undefined && Date.parse(at) > Date.now();
    await transition(
      id,
      request.admin!.email,
      ['draft', 'scheduled'],
      later
        ? { status: 'scheduled', scheduled_at: new Date(at) }
        : { status: 'sending', scheduled_at: null, started_at: sql`now()` },
      'This broadcast was already sent or started.',
    );
    if (!later) scope.listSender.wake();
    return adminBroadcast(db, id);
  });

  scope.post(`${PREFIX}/:id/pause`, async (request) => {
    const { id } = parsedOr400(idParam, request.params);
    await transition(
      id,
      request.admin!.email,
      ['sending'],
      { status: 'paused' },
      'Only a broadcast that is sending can be paused.',
    );
    return adminBroadcast(db, id);
  });

  scope.post(`${PREFIX}/:id/resume`, async (request) => {
    const { id } = parsedOr400(idParam, request.params);
    requireSender();
    await transition(
      id,
      request.admin!.email,
      ['paused'],
      { status: 'sending' },
      'Only a paused broadcast can be resumed.',
    );
    scope.listSender.wake();
    return adminBroadcast(db, id);
  });

  scope.post(`${PREFIX}/:id/cancel`, async (request) => {
    const { id } = parsedOr400(idParam, request.params);
    await transition(
      id,
      request.admin!.email,
      ['draft', 'scheduled', 'sending', 'paused'],
      { status: 'cancelled', finished_at: sql`now()` },
      'This broadcast has already finished.',
    );
    return adminBroadcast(db, id);
  });
};
