import type { FastifyInstance, FastifyReply } from 'fastify';
import { HttpError } from '../http/errors';
import { sendBundle } from './bundle-file';
import { sendStoredFile, storedFile, type StoredFileInfo } from '../store/files/stored-files';

/** What a download link delivers: the published product file, else BUNDLE_FILE. */
export type ProductToSend = { stored: StoredFileInfo } | { bundleFile: string };

/**
 * The product file as published now, looked up before a download link is counted: a missing
 * stored file is a 503 that costs the buyer no download.
 */
export async function productToSend(
  app: FastifyInstance,
  bundleFile: string,
): Promise<ProductToSend> {
  const id = app.store.published().content.product.file;
  if (id === null) return { bundleFile };
  const stored = await storedFile(app.database.db, id);
  if (stored?.kind !== 'product') {
    app.log.error({ file: id }, 'The published product file is not a stored product file');
    throw new HttpError(
      503,
      'The download is not available right now. Please try again later or reply to your receipt email.',
    );
  }
  return { stored };
}

/** Streams it as an attachment, never cached on the way. */
export function sendProduct(
  app: FastifyInstance,
  reply: FastifyReply,
  product: ProductToSend,
): Promise<FastifyReply> | FastifyReply {
  if ('bundleFile' in product) return sendBundle(reply, product.bundleFile);
  return sendStoredFile(reply, app.database.db, product.stored, 'private, no-store');
}
