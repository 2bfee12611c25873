import type { FastifyPluginAsync } from 'fastify';
import {
  ADMIN_SEQUENCE_PATH,
  ADMIN_SEQUENCE_PREVIEW_DOCUMENT_PATH,
  sequenceDraftSchema,
  sequenceStepDraftSchema,
  type AdminSequence,
  type EmailPreview,
} from '../../shared/broadcasts/broadcasts-api';
import { recordAudit, wholeRows } from '../admin/audit/audit-log';
import { sanitizeRichText } from '../admin/tables/sanitize-rich-text';
import { previewEmail, sendTestEmail } from '../broadcasts/admin-emails';
import {
  acceptPreviewForms,
  previewFormDraft,
  sendPreviewDocument,
} from '../broadcasts/preview-document';
import { parsedOr400 } from '../http/input';
import { lockSequence, readSequence, saveSequence, SLUG_PREFIX } from './sequence-store';

const PREFIX = ADMIN_SEQUENCE_PATH.replace('/api/admin', '');

/**
 * The follow-up sequence in the admin (DESIGN.md "The mailing list"), in the /api/admin
 * scope: its guard checks the session, and the PUBLIC_URL origin of every write; a save is in
 * the activity log with the steps as they were and are.
 */
export const sequenceRoutes: FastifyPluginAsync = async (scope) => {
  const { db } = scope.database;

  scope.get(PREFIX, async (): Promise<AdminSequence> => readSequence(db));

  scope.put(PREFIX, async (request): Promise<AdminSequence> => {
    const draft = parsedOr400(sequenceDraftSchema, request.body, 'Invalid sequence');
    await db.transaction().execute(async (trx) => {
      const beforeRows = await wholeRows(trx, 'broadcasts', await lockSequence(trx));
      const { ids } = await saveSequence(trx, draft);
      await recordAudit(trx, {
        adminEmail: request.admin!.email,
        action: 'update',
        tableName: 'broadcasts',
        rowIds: ids,
        before: beforeRows,
        after: [...(await wholeRows(trx, 'broadcasts', ids)), { sequenceActive: draft.active }],
      });
    });
    return readSequence(db);
  });

  /** A step as sent: sanitised, with its own campaign name once it has an id. */
  function stepMessage(body: unknown) {
    const step = parsedOr400(sequenceStepDraftSchema, body, 'Invalid step');
    return {
      slug: step.id === undefined ? `${SLUG_PREFIX}preview` : `${SLUG_PREFIX}${step.id}`,
      subject: step.subject,
      preheader: step.preheader,
      html: sanitizeRichText(step.html),
    };
  }

  scope.post(`${PREFIX}/test`, async (request): Promise<{ sentTo: string }> => {
    const { sender } = scope.store.published().content;
    return sendTestEmail(scope, sender, stepMessage(request.body), request.admin!.email);
  });

  scope.post(`${PREFIX}/preview`, async (request): Promise<EmailPreview> => {
    const { sender } = scope.store.published().content;
    return previewEmail(scope.config, sender, stepMessage(request.body));
  });

  acceptPreviewForms(scope);
  scope.post(
    ADMIN_SEQUENCE_PREVIEW_DOCUMENT_PATH.replace('/api/admin', ''),
    async (request, reply) => {
      const { sender } = scope.store.published().content;
      const message = stepMessage(previewFormDraft(request.body));
      return sendPreviewDocument(reply, previewEmail(scope.config, sender, message).html);
    },
  );
};
