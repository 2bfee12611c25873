import type { FastifyPluginAsync } from 'fastify';
import {
  scheduleBody,
  scheduleTimeError,
  STORE_SCHEDULE_PATH,
  type StoreSchedule,
} from '../../shared/store/schedule-api';
import { fieldErrors, storeContentSchema } from '../../shared/store/store-content';
import { ADMIN_PREFIX } from '../admin/admin-plugin';
import { recordAudit } from '../admin/audit/audit-log';
import { HttpError } from '../http/errors';
import { parsedOr400 } from '../http/input';
import { completeContent } from './complete-content';
import { seedFromConfig } from './store-plugin';
import { readDraft } from './store-versions';
import { deleteSchedule, readSchedule, saveSchedule } from './store-schedule';

/** The routes' paths inside the /api/admin scope. */
const path = STORE_SCHEDULE_PATH.slice(ADMIN_PREFIX.length);

/** Scheduled publishing of the draft (shared/store/schedule-api.ts), in the /api/admin scope. */
export const storeScheduleRoutes: FastifyPluginAsync = async (scope) => {
  const { db } = scope.database;
  const seed = seedFromConfig(scope.config);

  scope.get(path, async (): Promise<{ schedule: StoreSchedule | null }> => ({
    schedule: await readSchedule(db),
  }));

  scope.put(path, async (request): Promise<StoreSchedule> => {
    const body = parsedOr400(scheduleBody, request.body, (error) =>
      request.body && typeof request.body === 'object'
        ? (error.issues[0]?.message ?? 'invalid')
        : 'The body must be { "publishAt": "…" }.',
    );
    const publishAt = new Date(body.publishAt);
    const timeError = scheduleTimeError(publishAt);
    if (timeError) throw new HttpError(400, timeError);
    const adminEmail = request.admin!.email;
    return db.transaction().execute(async (trx) => {
      // The draft as it is now, and as a publish would check it.
      const draft = await readDraft(trx, true);
      const parsed = storeContentSchema.safeParse(completeContent(draft.content, seed));
      if (!parsed.success) {
        const fields = fieldErrors(parsed.error);
        throw new HttpError(
          400,
          `The draft cannot be published: ${Object.values(fields)[0] ?? 'it is not valid.'}`,
          fields,
        );
      }
      const { schedule, row } = await saveSchedule(trx, parsed.data, publishAt, adminEmail);
      await recordAudit(trx, {
        adminEmail,
        action: 'create',
        tableName: 'store_schedule',
        rowIds: [1],
        after: [row],
      });
      return schedule;
    });
  });

  scope.delete(path, async (request, reply) => {
    const adminEmail = request.admin!.email;
    await db.transaction().execute(async (trx) => {
      const before = await deleteSchedule(trx);
      if (!before) throw new HttpError(404, 'Nothing is scheduled.');
      await recordAudit(trx, {
        adminEmail,
        action: 'revoke',
        tableName: 'store_schedule',
        rowIds: [1],
        before: [before],
      });
    });
    return reply.code(204).send();
  });
};
