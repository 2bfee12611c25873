import type { FastifyPluginAsync } from 'fastify';
import {
  ADMIN_SEQUENCE_PATH,
  SENDER_MISSING_MESSAGE,
  sequenceDraftSchema,
  sequenceStepDraftSchema,
  type AdminSequence,
  type EmailPreview,
} from '../../shared/broadcasts/broadcasts-api';
import { recordAudit, wholeRows } from '../admin/audit/audit-log';
import { sanitizeRichText } from '../admin/tables/sanitize-rich-text';
import { broadcastEmail, senderComplete, type Sender } from '../broadcasts/broadcast-email';
import { HttpError } from '../http/errors';
import { parsedOr400 } from '../http/input';
import { newToken } from '../http/tokens';
import { lockSequence, readSequence, saveSequence, SLUG_PREFIX } from './sequence-store';

/** What a preview shows where the sender's footer is not filled in yet. */
const PLACEHOLDER_SENDER: Sender = { name: 'Your name', postalAddress: 'Your postal address' };

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
    const message = stepMessage(request.body);
    const { sender } = scope.store.published().content;
    if (!senderComplete(sender)) throw new HttpError(409, SENDER_MISSING_MESSAGE);
    const to = request.admin!.email;
    const email = broadcastEmail(
      scope.config,
      { ...message, subject: `[Test] ${message.subject}` },
      sender,
      { email: to, name: '' },
      // A link that unsubscribes no one: the admin is not on the list by this.
      newToken(),
    );
    const result = await scope.mailer.send(email);
    if (result.status !== 'sent') {
      throw new HttpError(502, `The test email could not be sent: ${result.error}`);
    }
    return { sentTo: to };
  });

  scope.post(`${PREFIX}/preview`, async (request): Promise<EmailPreview> => {
    const message = stepMessage(request.body);
    const { sender } = scope.store.published().content;
    const email = broadcastEmail(
      scope.config,
      message,
      senderComplete(sender) ? sender : PLACEHOLDER_SENDER,
      { email: 'alex@example.com', name: 'Alex' },
      'preview',
    );
    return { subject: email.subject, html: email.html, text: email.text };
  });
};
