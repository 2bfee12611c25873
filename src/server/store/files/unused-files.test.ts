import { sql, type Kysely } from 'kysely';
import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../../../tests/support/test-database';
import type { StoreFileKind } from '../../../shared/store/files-api';
import type { Database } from '../../db/schema';
import { periodicTasks } from '../../periodic-tasks';
import { runExclusively } from '../../periodic/periodic-work';
import { deleteUnusedFiles, unusedFilesCleanup } from './unused-files';

const HOUR_MS = 60 * 60 * 1000;
const hoursAgo = (hours: number) => new Date(Date.now() - hours * HOUR_MS);

/** A stored file as an upload leaves it: a product or guide with two chunks, an image with variants. */
async function storeFile(db: Kysely<Database>, kind: StoreFileKind, createdAt: Date) {
  const id = randomUUID();
  await db.transaction().execute(async (trx) => {
    if (kind === 'image') {
      await trx
        .insertInto('store_image_variants')
        .values(
          (['webp', 'jpeg'] as const).map((format, index) => ({
            file_id: id,
            width: 480,
            height: 320,
            format,
            hash: `${index}`.repeat(16),
            data: Buffer.from(`${id} ${format}`),
          })),
        )
        .execute();
    } else {
      await trx
        .insertInto('store_file_chunks')
        .values([0, 1].map((seq) => ({ file_id: id, seq, data: Buffer.from(`${id} ${seq}`) })))
        .execute();
    }
    await trx
      .insertInto('store_files')
      .values({
        id,
        kind,
        name: `${kind}.bin`,
        content_type: 'application/octet-stream',
        size: 10,
        sha256: 'a'.repeat(64),
        width: kind === 'image' ? 480 : null,
        height: kind === 'image' ? 320 : null,
        created_by: 'owner@example.com',
        created_at: createdAt,
      })
      .execute();
  });
  return id;
}

async function storedIds(db: Kysely<Database>) {
  const { rows } = await sql<{ id: string; parts: number }>`
    select f.id,
      (select count(*) from store_file_chunks c where c.file_id = f.id)
      + (select count(*) from store_image_variants v where v.file_id = f.id) as parts
    from store_files f`.execute(db);
  return new Map(rows.map((row) => [row.id, Number(row.parts)]));
}

async function orphanParts(db: Kysely<Database>) {
  const { rows } = await sql<{ count: number }>`
    select (select count(*) from store_file_chunks c
        where not exists (select 1 from store_files f where f.id = c.file_id))
      + (select count(*) from store_image_variants v
        where not exists (select 1 from store_files f where f.id = v.file_id)) as count`.execute(
    db,
  );
  return Number(rows[0]!.count);
}

/** Sets a value at `path` of the draft's content (jsonb_set creates the last key only). */
async function setInDraft(db: Kysely<Database>, path: string[], value: unknown) {
  await sql`update store_draft
    set content = jsonb_set(content, ${`{${path.join(',')}}`}::text[], ${JSON.stringify(value)}::jsonb)
    where id = 1`.execute(db);
}

/** A cleanup started now, once it has been seen waiting (for the draft's lock) for 300 ms. */
async function cleanupWaiting(db: Kysely<Database>): Promise<{ deleted: Promise<string[]> }> {
  const cleanup = db.transaction().execute(deleteUnusedFiles);
  const first = await Promise.race([
    cleanup.then(() => 'cleanup'),
    new Promise((resolve) => setTimeout(resolve, 300, 'waiting')),
  ]);
  expect(first).toBe('waiting');
  return { deleted: cleanup };
}

describeEachDatabase('unused uploads', (use) => {
  it('deletes old files nothing uses, with their chunks and variants, and keeps the rest', async () => {
    const { db } = use();
    await sql`insert into store_draft (id, content) values (1, '{"product": {"file": null}}')
      on conflict (id) do nothing`.execute(db);
    await sql`insert into store_versions (version, content) values (1, '{"product": {"file": null}}')
      on conflict (version) do nothing`.execute(db);

    const unusedProduct = await storeFile(db, 'product', hoursAgo(25));
    const unusedImage = await storeFile(db, 'image', hoursAgo(48));
    const recent = await storeFile(db, 'guide', hoursAgo(23));
    const inDraft = await storeFile(db, 'product', hoursAgo(25));
    const deepInDraft = await storeFile(db, 'image', hoursAgo(25));
    const linkedInDraft = await storeFile(db, 'guide', hoursAgo(25));
    const inOldVersion = await storeFile(db, 'guide', hoursAgo(25));
    const imageInOldVersion = await storeFile(db, 'image', hoursAgo(25));

    await setInDraft(db, ['product', 'file'], inDraft);
    // Anywhere in the document, not only at the keys known today.
    await setInDraft(db, ['later'], { sections: [{ cards: [{ image: { file: deepInDraft } }] }] });
    await setInDraft(db, ['note'], `Read [the guide](/files/${linkedInDraft}) first.`);
    // Only an old version keeps these: the draft never had them.
    const oldVersion = {
      product: { file: null },
      guide: { file: inOldVersion },
      hero: { image: { file: imageInOldVersion, alt: '' } },
    };
    await sql`insert into store_versions (version, content)
      values (2, ${JSON.stringify(oldVersion)}::jsonb)`.execute(db);
    await sql`insert into store_versions (version, content) select 3, content from store_draft
      where id = 1`.execute(db);

    const index = periodicTasks.indexOf(unusedFilesCleanup);
    expect(index).toBeGreaterThanOrEqual(0);
    expect(await runExclusively(db, index, periodicTasks[index]!.run)).toBe(true);

    const left = await storedIds(db);
    expect(left.has(unusedProduct)).toBe(false);
    expect(left.has(unusedImage)).toBe(false);
    expect(await orphanParts(db)).toBe(0);
    for (const id of [recent, inDraft, deepInDraft, linkedInDraft, inOldVersion, imageInOldVersion])
      expect(left.get(id), id).toBe(2);

    // A second run finds nothing more to delete.
    expect(await db.transaction().execute(deleteUnusedFiles)).toEqual([]);
  });

  it('keeps a file that a draft save being committed starts to use', async () => {
    const { db } = use();
    const file = await storeFile(db, 'image', hoursAgo(30));
    let cleanup: Promise<string[]> | undefined;
    await db.transaction().execute(async (save) => {
      await setInDraft(save, ['hero'], { image: { file, alt: '' } });
      // The cleanup waits for the draft's lock while the save is open.
      cleanup = (await cleanupWaiting(db)).deleted;
    });
    expect(await cleanup).not.toContain(file);
    expect((await storedIds(db)).get(file)).toBe(2);
  });

  it('keeps a file that a version published while the cleanup looks starts to use', async () => {
    const { db } = use();
    const file = await storeFile(db, 'product', hoursAgo(30));
    let cleanup: Promise<string[]> | undefined;
    await db.transaction().execute(async (publish) => {
      // As a publish does: the draft's lock, then the next version.
      await sql`select 1 from store_draft where id = 1 for update`.execute(publish);
      await sql`insert into store_versions (version, content, published_by)
        select version + 1, jsonb_set(content, '{product,file}', ${JSON.stringify(file)}::jsonb),
          'owner@example.com'
        from store_versions order by version desc limit 1`.execute(publish);
      cleanup = (await cleanupWaiting(db)).deleted;
    });
    expect(await cleanup).not.toContain(file);
    expect((await storedIds(db)).get(file)).toBe(2);
  });
});
