import { sql, type Kysely } from 'kysely';
import type {
  AdminSequence,
  AdminSequenceStep,
  sequenceDraftSchema,
} from '../../shared/broadcasts/broadcasts-api';
import type * as z from 'zod/mini';
import { sanitizeRichText } from '../admin/tables/sanitize-rich-text';
import type { Database } from '../db/schema';
import { HttpError } from '../http/errors';
import { NO_RESULTS, sendResults } from './send-results';

type SequenceDraft = z.output<typeof sequenceDraftSchema>;

/** A step's utm_campaign is this and its id: the same whatever the step is renamed to. */
export const SLUG_PREFIX = 'sequence-';

/** The steps in use: `sending` rows of kind 'sequence' (a removed one is `cancelled`). */
function liveSteps(db: Kysely<Database>) {
  return db.selectFrom('broadcasts').where('kind', '=', 'sequence').where('status', '=', 'sending');
}

/**
 * Takes the sequence's lock for the rest of the transaction: one save at a time, and the steps
 * read after it are the ones the save changes.
 */
export async function lockSequence(trx: Kysely<Database>): Promise<number[]> {
  await sql`select 1 from list_sequence for update`.execute(trx);
  const steps = await liveSteps(trx).select('id').orderBy('id').execute();
  return steps.map((row) => Number(row.id));
}

/** The sequence as the admin edits it: its switch, and its steps in order with their results. */
export async function readSequence(db: Kysely<Database>): Promise<AdminSequence> {
  const [sequence, steps] = await Promise.all([
    db.selectFrom('list_sequence').select('active').executeTakeFirst(),
    liveSteps(db)
      .select(['id', 'position', 'delay_days', 'subject', 'preheader', 'html'])
      .orderBy('position')
      .orderBy('id')
      .execute(),
  ]);
  const results = await sendResults(
    db,
    steps.map((step) => Number(step.id)),
  );
  return {
    active: sequence?.active ?? false,
    steps: steps.map((step): AdminSequenceStep => ({
      ...(results.get(Number(step.id)) ?? NO_RESULTS),
      id: Number(step.id),
      position: step.position ?? 0,
      delayDays: step.delay_days ?? 0,
      subject: step.subject,
      preheader: step.preheader,
      html: step.html,
    })),
  };
}

/**
 * Saves the whole sequence in the caller's transaction: the switch (switching it on records
 * when, for the rule on late steps in sequence-enqueue.ts), each step in the order given
 * (sanitised as the store's rich text is), new ones added, and the steps left out removed: a
 * removed step is kept, `cancelled`, for its history, and its messages not yet sent are
 * skipped. Returns the ids of every step it touched (for the activity log).
 */
export async function saveSequence(
  trx: Kysely<Database>,
  draft: SequenceDraft,
): Promise<{ ids: number[] }> {
  const known = new Set(await lockSequence(trx));
  await trx
    .updateTable('list_sequence')
    .set({
      active: draft.active,
      active_since: draft.active
        ? sql<Date>`case when active then active_since else now() end`
        : sql<Date>`active_since`,
      updated_at: new Date(),
    })
    .execute();
  const kept = new Set<number>();
  const ids: number[] = [];
  for (const [position, step] of draft.steps.entries()) {
    const values = {
      position,
      delay_days: step.delayDays,
      subject: step.subject,
      preheader: step.preheader,
      html: sanitizeRichText(step.html),
      updated_at: new Date(),
    };
    if (step.id !== undefined) {
      if (!known.has(step.id) || kept.has(step.id)) {
        throw new HttpError(400, `There is no step ${step.id} in the sequence.`);
      }
      kept.add(step.id);
      await trx.updateTable('broadcasts').set(values).where('id', '=', step.id).execute();
      ids.push(step.id);
      continue;
    }
    // The id is drawn first so the slug can carry it in the same statement.
    const { rows } = await sql<{ id: number }>`
      insert into broadcasts (id, kind, slug, status, started_at, position, delay_days, subject,
        preheader, html)
      overriding system value
      select n.id, 'sequence', ${SLUG_PREFIX} || n.id, 'sending', now(), ${position},
        ${values.delay_days}, ${values.subject}, ${values.preheader}, ${values.html}
      from (select nextval(pg_get_serial_sequence('broadcasts', 'id')) as id) n
      returning id`.execute(trx);
    const id = rows[0]!.id;
    ids.push(Number(id));
  }
  const removed = [...known].filter((id) => !kept.has(id));
  if (removed.length > 0) {
    await trx
      .updateTable('broadcasts')
      .set({ status: 'cancelled', finished_at: new Date(), updated_at: new Date() })
      .where('id', 'in', removed)
      .execute();
    await trx
      .updateTable('broadcast_recipients')
      .set({ status: 'skipped', last_error: 'step removed from the sequence' })
      .where('broadcast_id', 'in', removed)
      .where('status', '=', 'pending')
      .execute();
  }
  return { ids: [...ids, ...removed] };
}
