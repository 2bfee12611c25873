import type { FastifyReply } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { createHash, randomUUID } from 'node:crypto';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { StoreFileKind } from '../../../shared/store/files-api';
import type { Database, StoreFile } from '../../db/schema';
import { attachment } from '../../http/content-disposition';
import { HttpError } from '../../http/errors';

/** Bytes per stored row: written as the upload streams in, read a few at a time. */
export const CHUNK_BYTES = 256 * 1024;
/** Stored rows one query of a download fetches. */
export const CHUNKS_PER_FETCH = 2;
/**
 * What a download reads of a stored row at a time. pg reads bytea as hex text: a whole 256 KiB
 * row is a 512 KiB message, which its parser assembles in buffers it doubles (256 KiB, 512 KiB,
 * 1 MiB) before decoding the row into one more. Those buffers are garbage until V8's next GC,
 * and 8 downloads grew the server by tens of MB; in pieces this size they stay small and it
 * grew less (README, "The store content").
 */
export const PIECE_BYTES = 32 * 1024;

const MB = 1024 * 1024;

export function newFileId(): string {
  return randomUUID();
}

/** "C:\\Users\\me\\Bundle.pdf" → "Bundle.pdf": no path, no control characters, a sane length. */
export function cleanFileName(name: string | undefined, fallback = 'file'): string {
  const base = (name ?? '').split(/[/\\]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const cleaned = base.replace(/[\u0000-\u001f\u007f-\u009f]/g, '').trim();
  const shortened = [...cleaned].slice(0, 200).join('');
  return shortened === '' || shortened === '.' || shortened === '..' ? fallback : shortened;
}

const contentTypes: Record<string, string> = {
  '.pdf': 'application/pdf',
  '.zip': 'application/zip',
  '.epub': 'application/epub+zip',
  '.mp3': 'audio/mpeg',
  '.m4a': 'audio/mp4',
  '.mp4': 'video/mp4',
};

/** By the name's extension: never what the uploading browser claimed. */
export function attachmentType(name: string): string {
  return contentTypes[path.extname(name).toLowerCase()] ?? 'application/octet-stream';
}

export function tooLarge(maxBytes: number, what: string): HttpError {
  return new HttpError(413, `${what} is too large: the limit is ${Math.round(maxBytes / MB)} MB.`);
}

export type StoredFileInfo = Pick<
  StoreFile,
  'id' | 'kind' | 'name' | 'content_type' | 'size' | 'sha256'
>;

/**
 * Writes a product or guide file's bytes as they arrive, in CHUNK_BYTES rows, and then its file
 * row with size and SHA-256, all in the caller's transaction (so a failed or aborted upload
 * leaves nothing). Memory stays at one chunk; awaiting each insert holds the upload back.
 */
export async function storeStreamedFile(
  trx: Kysely<Database>,
  upload: {
    kind: Exclude<StoreFileKind, 'image'>;
    name: string;
    bytes: AsyncIterable<Buffer>;
    maxBytes: number;
    createdBy: string;
  },
): Promise<StoredFileInfo> {
  const id = newFileId();
  const hash = createHash('sha256');
  let size = 0;
  let seq = 0;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  const flush = async (data: Buffer) => {
    await trx.insertInto('store_file_chunks').values({ file_id: id, seq, data }).execute();
    seq += 1;
  };
  for await (const piece of upload.bytes) {
    size += piece.length;
    if (size > upload.maxBytes) throw tooLarge(upload.maxBytes, 'The file');
    hash.update(piece);
    pending.push(piece);
    pendingBytes += piece.length;
    while (pendingBytes >= CHUNK_BYTES) {
      const all = Buffer.concat(pending, pendingBytes);
      await flush(all.subarray(0, CHUNK_BYTES));
      const rest = all.subarray(CHUNK_BYTES);
      pending = rest.length > 0 ? [Buffer.from(rest)] : [];
      pendingBytes = rest.length;
    }
  }
  if (size === 0)
    throw new HttpError(400, 'The file is empty: choose a file with something in it.');
  if (pendingBytes > 0) await flush(Buffer.concat(pending, pendingBytes));
  const file = {
    id,
    kind: upload.kind,
    name: upload.name,
    content_type: attachmentType(upload.name),
    size,
    sha256: hash.digest('hex'),
  };
  await trx
    .insertInto('store_files')
    .values({ ...file, created_by: upload.createdBy })
    .execute();
  return file;
}

export async function storedFile(
  db: Kysely<Database>,
  id: string,
): Promise<StoredFileInfo | undefined> {
  if (!/^[a-z0-9-]{1,64}$/.test(id)) return undefined;
  return db
    .selectFrom('store_files')
    .select(['id', 'kind', 'name', 'content_type', 'size', 'sha256'])
    .where('id', '=', id)
    .executeTakeFirst();
}

/**
 * A stored file's bytes in order, CHUNKS_PER_FETCH rows per query in PIECE_BYTES pieces, fetched
 * only as the reader takes them (backpressure): a download holds a few chunks in memory
 * whatever the file's size. The rows of a file never change, so a download finishes with the
 * file it started with.
 */
export function storedFileStream(
  db: Kysely<Database>,
  file: { id: string; size: number },
): Readable {
  async function* chunks() {
    let next = 0;
    let sent = 0;
    while (sent < file.size) {
      const from = next;
      const { rows } = await sql<{ seq: number; data: Buffer }>`
        select c.seq, substring(c.data from p.start for ${PIECE_BYTES}) as data
        from store_file_chunks c
          cross join lateral generate_series(1, octet_length(c.data), ${PIECE_BYTES}) as p(start)
        where c.file_id = ${file.id} and c.seq >= ${from} and c.seq < ${from + CHUNKS_PER_FETCH}
        order by c.seq, p.start`.execute(db);
      if (rows.length === 0) break;
      for (const row of rows) {
        // A row's first piece starts the next chunk; the others continue the one before.
        if (row.seq === next) next += 1;
        else if (row.seq !== next - 1) {
          throw new Error(`Stored file ${file.id} misses chunk ${next}.`);
        }
        sent += row.data.length;
        yield row.data;
      }
    }
    if (sent !== file.size) {
      throw new Error(`Stored file ${file.id} has ${sent} bytes instead of ${file.size}.`);
    }
  }
  return Readable.from(chunks(), { objectMode: false, highWaterMark: CHUNK_BYTES });
}

/** Streams a stored file as an attachment under its uploaded name. */
export function sendStoredFile(
  reply: FastifyReply,
  db: Kysely<Database>,
  file: StoredFileInfo,
  cacheControl: string,
): FastifyReply {
  return reply
    .header('content-type', file.content_type)
    .header('content-length', file.size)
    .header('content-disposition', attachment(file.name))
    .header('cache-control', cacheControl)
    .send(storedFileStream(db, file));
}
