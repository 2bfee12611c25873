import type { FastifyPluginAsync } from 'fastify';
import * as z from 'zod/mini';
import { ADMIN_PREFIX } from '../admin/admin-plugin';
import { HttpError } from '../http/errors';
import { STORE_PREVIEW_PATH } from '../../shared/store/store-api';
import { checkUploadedFiles } from './files/content-files';
import { fieldErrors, storeContentSchema } from '../../shared/store/store-content';

/**
 * The page without its scripts: the preview frame runs none (a sandbox without allow-scripts),
 * and each one it met would be a console error. React escapes every text and the embedded JSON
 * escapes `<`, so no `</script>` occurs inside one.
 */
function withoutScripts(html: string): string {
  return html.replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, '');
}

/** A content document is a few KB; a body this large is not one. */
export const STORE_BODY_LIMIT = 256 * 1024;

/** The content of a request body `{ content }`, or a 400 naming each bad field by its path. */
export function contentOr400(body: unknown) {
  const parsed = z.safeParse(storeContentSchema, (body as { content?: unknown } | null)?.content);
  if (parsed.success) return parsed.data;
  throw new HttpError(400, 'Some fields need your attention.', fieldErrors(parsed.error));
}

/**
 * POST /api/admin/store/preview { content }, inside the admin scope: the home page exactly as
 * it would be served with `content`, for the Store page's preview frames. The admin guard marks
 * it no-store; nothing is saved or published.
 */
export const storePreviewRoute: FastifyPluginAsync = async (scope) => {
  scope.post(
    STORE_PREVIEW_PATH.slice(ADMIN_PREFIX.length),
    { bodyLimit: STORE_BODY_LIMIT },
    async (request, reply) => {
      const content = contentOr400(request.body);
      await checkUploadedFiles(request.server.database.db, content);
      const { pages } = request.server;
      if (!pages)
        throw new HttpError(503, 'The site is not built, so there is no page to preview.');
      return reply
        .header('content-type', 'text/html; charset=utf-8')
        .header('x-robots-tag', 'noindex')
        .send(
          withoutScripts(
            await pages.render({
              ...content,
              // The draft's prices as the page would show them if it were published now.
              product: request.server.store.shownProduct(new Date(), content.product),
            }),
          ),
        );
    },
  );
};
