import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type { PeriodicTask } from '../../periodic/periodic-work';
import { DRAFT_ID } from '../store-versions';

/** An upload is kept this long unused: the owner may not have saved it into the draft yet. */
export const UNUSED_FILES_KEPT = '24 hours';

/**
 * Deletes the uploaded files (their chunks and image variants go with them) older than
 * UNUSED_FILES_KEPT that neither the draft nor any version mentions, and returns their ids.
 * A reference is the id anywhere in the content's JSON text, not at known keys, so an image
 * or a link added to the content later keeps its file too. Versions are never deleted, so a
 * file that was ever published stays, and no download of a live file is cut off.
 */
export async function deleteUnusedFiles(trx: Kysely<Database>): Promise<string[]> {
  // First, without the draft's lock (a long history is a long scan): the old files that no
  // version up to `seen` and not the draft name. Versions are only ever added.
  const { rows: latest } = await sql<{ seen: number }>`
    select coalesce(max(version), 0) as seen from store_versions`.execute(trx);
  const seen = Number(latest[0]!.seen);
  const { rows: unused } = await sql<{ id: string }>`
    with contents as materialized (
      select content::text as json from store_draft
      union all
      select content::text from store_versions where version <= ${seen}
    )
    select file.id from store_files as file
    where file.created_at < now() - ${UNUSED_FILES_KEPT}::interval
      and not exists (select 1 from contents where strpos(contents.json, file.id) > 0)`.execute(
    trx,
  );
  if (unused.length === 0) return [];
  // Then under the draft's lock, as a save and a publish take it, the draft and the versions
  // published since are read again: nothing can start using a file before the delete.
  await sql`select 1 from store_draft where id = ${DRAFT_ID} for share`.execute(trx);
  const { rows } = await sql<{ id: string }>`
    with contents as materialized (
      select content::text as json from store_draft
      union all
      select content::text from store_versions where version > ${seen}
    )
    delete from store_files as file
    where file.id = any(${unused.map((row) => row.id)}::text[])
      and not exists (select 1 from contents where strpos(contents.json, file.id) > 0)
    returning file.id`.execute(trx);
  return rows.map((row) => row.id);
}

export const unusedFilesCleanup: PeriodicTask = {
  name: 'delete uploaded files that neither the draft nor any version uses',
  run: async (trx) => void (await deleteUnusedFiles(trx)),
};
