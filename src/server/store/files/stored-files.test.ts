import type { Readable } from 'node:stream';
import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../../../tests/support/test-database';
import { CHUNK_BYTES, PIECE_BYTES, storedFileStream, storeStreamedFile } from './stored-files';

/** What a download's pipe gets: each piece as the stream hands it over in flowing mode. */
function piecesOf(stream: Readable): Promise<Buffer[]> {
  return new Promise((resolve, reject) => {
    const pieces: Buffer[] = [];
    stream.on('data', (piece: Buffer) => pieces.push(piece));
    stream.on('error', reject);
    stream.on('end', () => resolve(pieces));
  });
}

describeEachDatabase('reading a stored file', (use) => {
  async function store(data: Buffer) {
    async function* whole() {
      yield data;
    }
    return use()
      .db.transaction()
      .execute((trx) =>
        storeStreamedFile(trx, {
          kind: 'product',
          name: 'bundle.zip',
          bytes: whole(),
          maxBytes: data.length,
          createdBy: 'owner@example.com',
        }),
      );
  }

  it('streams every byte in order, in pieces no larger than PIECE_BYTES', async () => {
    // Five rows (more than one query's), the last a part of one and of a piece.
    const data = Buffer.alloc(CHUNK_BYTES * 4 + PIECE_BYTES + 7);
    for (let i = 0; i < data.length; i++) data[i] = (i * 131 + (i >> 8)) & 255;
    const file = await store(data);
    const pieces = await piecesOf(storedFileStream(use().db, file));
    expect(Buffer.concat(pieces).equals(data)).toBe(true);
    expect(Math.max(...pieces.map((piece) => piece.length))).toBe(PIECE_BYTES);
  });

  it('fails rather than send a file with a chunk missing or bytes short', async () => {
    const { db } = use();
    const file = await store(Buffer.alloc(CHUNK_BYTES * 3, 1));
    await expect(piecesOf(storedFileStream(db, { ...file, size: file.size + 1 }))).rejects.toThrow(
      `has ${file.size} bytes instead of ${file.size + 1}`,
    );
    await db
      .deleteFrom('store_file_chunks')
      .where('file_id', '=', file.id)
      .where('seq', '=', 1)
      .execute();
    await expect(piecesOf(storedFileStream(db, file))).rejects.toThrow('misses chunk 1');
  });
});
