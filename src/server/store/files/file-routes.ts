import type { FastifyPluginAsync } from 'fastify';
import { imageTypes, parseMediaName } from '../../../shared/store/files-api';
import { HttpError } from '../../http/errors';
import { sendStoredFile, storedFile } from './stored-files';

/** The address changes with the bytes, so a copy never goes stale. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * The public side of the owner's uploads: image variants at content-hashed addresses, and
 * guide files as attachments. A product file is never served here, only by download links.
 */
export const fileRoutes: FastifyPluginAsync = async (app) => {
  const { db } = app.database;

  app.get<{ Params: { name: string } }>('/media/:name', async (request, reply) => {
    const wanted = parseMediaName(request.params.name);
    const variant =
      wanted &&
      (await db
        .selectFrom('store_image_variants')
        .select('data')
        .where('hash', '=', wanted.hash)
        .where('width', '=', wanted.width)
        .where('format', '=', wanted.format)
        .limit(1)
        .executeTakeFirst());
    if (!wanted || !variant) throw new HttpError(404, 'There is no such image.');
    return reply
      .header('content-type', imageTypes[wanted.format])
      .header('cache-control', IMMUTABLE)
      .send(variant.data);
  });

  // No HEAD: it would read the file only to throw it away.
  app.get<{ Params: { id: string } }>(
    '/files/:id',
    { exposeHeadRoute: false, config: { rateLimit: { max: 30, timeWindow: 60_000 } } },
    async (request, reply) => {
      const file = await storedFile(db, request.params.id);
      if (file?.kind !== 'guide') throw new HttpError(404, 'There is no such file.');
      return sendStoredFile(reply, db, file, IMMUTABLE);
    },
  );
};
