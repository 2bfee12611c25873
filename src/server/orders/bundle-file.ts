import type { FastifyReply } from 'fastify';
import { createReadStream } from 'node:fs';
import { access, constants, stat } from 'node:fs/promises';
import path from 'node:path';

const contentTypes: Record<string, string> = {
  '.pdf': 'application/pdf',
  '.zip': 'application/zip',
  '.epub': 'application/epub+zip',
  '.mp3': 'audio/mpeg',
  '.mp4': 'video/mp4',
};

/** Fails the start with a clear message when the product file cannot be read. */
export async function checkBundleFile(file: string): Promise<void> {
  try {
    await access(file, constants.R_OK);
    if (!(await stat(file)).isFile()) throw new Error('not a file');
  } catch {
    throw new Error(`BUNDLE_FILE ${file} cannot be read: set it to the product file to deliver.`);
  }
}

/** `attachment` with the file's name, ASCII-safe and in RFC 5987 form for the rest. */
function disposition(file: string): string {
  const name = path.basename(file);
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/** Streams the product file as a download; never cached on the way. */
export async function sendBundle(reply: FastifyReply, file: string): Promise<FastifyReply> {
  const { size } = await stat(file);
  return reply
    .header(
      'content-type',
      contentTypes[path.extname(file).toLowerCase()] ?? 'application/octet-stream',
    )
    .header('content-length', size)
    .header('content-disposition', disposition(file))
    .header('cache-control', 'private, no-store')
    .send(createReadStream(file));
}
