import { sql, type Kysely } from 'kysely';
import type { StoreSchedule } from '../../shared/store/schedule-api';
import { storeContentSchema, type StoreContent } from '../../shared/store/store-content';
import type { Database } from '../db/schema';
import { recordAudit } from '../admin/audit/audit-log';
import { completeContent } from './complete-content';
import { insertVersion, readDraft } from './store-versions';

type ScheduleRow = {
  content: unknown;
  publish_at: Date;
  created_at: Date;
  created_by: string;
};

function toSchedule(row: Pick<ScheduleRow, 'publish_at' | 'created_at' | 'created_by'>) {
  return {
    publishAt: new Date(row.publish_at).toISOString(),
    createdAt: new Date(row.created_at).toISOString(),
    by: row.created_by,
  } satisfies StoreSchedule;
}

export async function readSchedule(db: Kysely<Database>): Promise<StoreSchedule | null> {
  const row = await db
    .selectFrom('store_schedule')
    .select(['publish_at', 'created_at', 'created_by'])
    .executeTakeFirst();
  return row ? toSchedule(row) : null;
}

/** Sets the one schedule (replacing any earlier one); returns the row as stored, for the log. */
export async function saveSchedule(
  db: Kysely<Database>,
  content: StoreContent,
  publishAt: Date,
  adminEmail: string,
): Promise<{ schedule: StoreSchedule; row: Record<string, unknown> }> {
  const { rows } = await sql<ScheduleRow & { row: Record<string, unknown> }>`
    with saved as (
      insert into store_schedule (id, content, publish_at, created_by)
      values (1, ${JSON.stringify(content)}::jsonb, ${publishAt}, ${adminEmail})
      on conflict (id) do update set content = excluded.content,
        publish_at = excluded.publish_at, created_at = now(), created_by = excluded.created_by
      returning *
    )
    select publish_at, created_at, created_by, to_jsonb(saved) as row from saved`.execute(db);
  const row = rows[0]!;
  return { schedule: toSchedule(row), row: row.row };
}

/** Deletes the schedule; its row as it was, or undefined when there was none. */
export async function deleteSchedule(
  db: Kysely<Database>,
): Promise<Record<string, unknown> | undefined> {
  const { rows } = await sql<{ row: Record<string, unknown> }>`
    with deleted as (delete from store_schedule returning *)
    select to_jsonb(deleted) as row from deleted`.execute(db);
  return rows[0]?.row;
}

export type ScheduledPublish =
  { published: number; by: string } | { refused: string; by: string } | undefined;

/**
 * Publishes the schedule when its time has come, as a normal publish: the next version, its
 * activity entry (by the admin who scheduled it) and the notification every instance listens
 * for, in one transaction that also deletes the schedule. Instances that poll at once do not
 * wait on each other: the first claims the row, the others skip it (and find it gone after).
 * A content today's schema refuses is dropped, not published, and said so in the log.
 */
export async function publishDue(
  db: Kysely<Database>,
  seed: StoreContent,
): Promise<ScheduledPublish> {
  return db.transaction().execute(async (trx) => {
    const { rows } = await sql<ScheduleRow>`
      select content, publish_at, created_at, created_by from store_schedule
      where publish_at <= now()
      for update skip locked`.execute(trx);
    const due = rows[0];
    if (!due) return undefined;
    const before = await deleteSchedule(trx);
    const parsed = storeContentSchema.safeParse(completeContent(due.content, seed));
    if (!parsed.success)
      return { refused: 'The scheduled content is not valid.', by: due.created_by };
    // The draft's lock: publishes take turns (the draft itself is left as the owner has it).
    await readDraft(trx, true);
    const published = await insertVersion(trx, parsed.data, due.created_by);
    await recordAudit(trx, {
      adminEmail: due.created_by,
      action: 'publish',
      tableName: 'store_versions',
      rowIds: [published.version],
      before: before ? [before] : null,
      after: [published.row],
    });
    return { published: published.version, by: due.created_by };
  });
}
