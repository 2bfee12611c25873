import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  createEmptyTestDatabase,
  describeEachDatabase,
  type TestDatabase,
} from '../../../../tests/support/test-database';
import { loadBackup } from '../../backup/load-backup';
import { readBackupFile } from '../../backup/read-backup-file';
import { readSnapshot } from '../../backup/read-snapshot';
import { writeBackupFile } from '../../backup/write-backup-file';
import { CHUNK_BYTES, storedFile, storedFileStream, storeStreamedFile } from './stored-files';

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

async function* pieces(data: Buffer, size: number) {
  for (let at = 0; at < data.length; at += size) yield data.subarray(at, at + size);
}

describeEachDatabase('stored files in backups', (use, kind) => {
  let dir: string;
  let target: TestDatabase | undefined;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'soul-reset-files-backup-'));
  });
  afterAll(async () => {
    await target?.dispose();
    await rm(dir, { recursive: true, force: true });
  });

  it('restores every byte of a stored file and of an image variant', async () => {
    // Every byte value, in 2.5 chunks, arriving in odd-sized pieces.
    const data = Buffer.alloc(Math.floor(CHUNK_BYTES * 2.5));
    for (let i = 0; i < data.length; i++) data[i] = (i * 131 + (i >> 8)) & 255;
    const { db } = use();
    const file = await db.transaction().execute((trx) =>
      storeStreamedFile(trx, {
        kind: 'product',
        name: 'Bündle.zip',
        bytes: pieces(data, 65_537),
        maxBytes: data.length,
        createdBy: 'owner@example.com',
      }),
    );
    expect(file).toMatchObject({ size: data.length, sha256: sha256(data) });
    const variant = Buffer.from([0, 255, 0x5c, 0x22, 10, 13, 0x27, 128]);
    await db
      .insertInto('store_files')
      .values({
        id: 'image-1',
        kind: 'image',
        name: 'a.jpg',
        content_type: 'image/jpeg',
        size: 8,
        sha256: sha256(variant),
        created_by: 'owner@example.com',
      })
      .execute();
    await db
      .insertInto('store_image_variants')
      .values({
        file_id: 'image-1',
        width: 480,
        height: 360,
        format: 'jpeg',
        hash: '0123456789abcdef',
        data: variant,
      })
      .execute();

    const backup = path.join(dir, 'files.jsonl.gz');
    await writeBackupFile(readSnapshot(db, kind), backup);
    target = await createEmptyTestDatabase(kind);
    await loadBackup(target.db, readBackupFile(backup));

    const restored = await storedFile(target.db, file.id);
    expect(restored).toEqual(file);
    const bytes = await buffer(storedFileStream(target.db, restored!));
    expect(sha256(bytes)).toBe(sha256(data));
    const image = await target.db
      .selectFrom('store_image_variants')
      .select('data')
      .executeTakeFirstOrThrow();
    expect(image.data.equals(variant)).toBe(true);
  }, 60_000);
});
