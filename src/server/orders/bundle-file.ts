import type { FastifyReply } from 'fastify';
import { createReadStream } from 'node:fs';
import { access, constants, stat } from 'node:fs/promises';
import path from 'node:path';
import { attachment } from '../http/content-disposition';

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

/** Streams the product file as a download; never cached on the way. */
export async function sendBundle(reply: FastifyReply, file: string): Promise<FastifyReply> {
  const { size } = await stat(file);
  return reply
    .header(
      'content-type',
      contentTypes[path.extname(file).toLowerCase()] ?? 'application/octet-stream',
    )
    .header('content-length', size)
    .header('content-disposition', attachment(path.basename(file)))
    .header('cache-control', 'private, no-store')
    .send(createReadStream(file));
}
