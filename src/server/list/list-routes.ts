import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import {
  listConfirmPath,
  listUnsubscribePath,
  UNSUBSCRIBE_CHOICE_FIELD,
  type UnsubscribeScope,
} from '../../shared/list/list-api';
import {
  confirmedPage,
  confirmPage,
  LIST_STYLESHEET_PATH,
  listStylesheet,
  unsubscribedPage,
  unsubscribePage,
} from './list-pages';
import { createListService } from './list-service';

/** A one-click body is one short field; anything longer is not a browser's or a mail provider's. */
const LINK_BODY_LIMIT = 1024;

function html(reply: FastifyReply, body: string) {
  return reply
    .code(200)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('referrer-policy', 'no-referrer')
    .send(body);
}

/**
 * The links of list emails (DESIGN.md "The mailing list"): GET shows a page with one button and
 * changes nothing (the unsubscribe page also offers the choice of what to stop); POST acts. Every token, known, unknown or altered, gets the same page and
 * status. The unsubscribe POST is RFC 8058's one-click: a mail provider posts
 * `List-Unsubscribe=One-Click` with no cookie and no Origin, so no origin check applies, and
 * the answer is the page itself (no redirect).
 */
export const listRoutes: FastifyPluginAsync = async (app) => {
  const service = createListService({
    db: app.database.db,
    config: app.config,
    store: app.store,
    wakeWorker: () => app.deliveryWorker.wake(),
  });
  const productName = () => app.store.published().content.product.name;

  // The form's body (and a provider's) is read only as far as to accept it: the token decides.
  app.addContentTypeParser(
    ['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain'],
    { parseAs: 'string', bodyLimit: LINK_BODY_LIMIT },
    (_request, body, done) => done(null, body),
  );

  app.get(LIST_STYLESHEET_PATH, async (_request, reply) =>
    reply
      .header('content-type', 'text/css; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .send(listStylesheet),
  );

  app.get<{ Params: { token: string } }>('/list/confirm/:token', async (request, reply) =>
    html(reply, confirmPage(productName(), listConfirmPath(request.params.token))),
  );

  app.post<{ Params: { token: string } }>(
    '/list/confirm/:token',
    { bodyLimit: LINK_BODY_LIMIT },
    async (request, reply) => {
      await service.confirm(request.params.token);
      return html(reply, confirmedPage(productName()));
    },
  );

  app.get<{ Params: { token: string } }>('/list/unsubscribe/:token', async (request, reply) =>
    html(reply, unsubscribePage(productName(), listUnsubscribePath(request.params.token))),
  );

  app.post<{ Params: { token: string } }>(
    '/list/unsubscribe/:token',
    { bodyLimit: LINK_BODY_LIMIT },
    async (request, reply) => {
      const body = typeof request.body === 'string' ? request.body : '';
      const oneClick = body.includes('List-Unsubscribe=One-Click');
      // The page's form sends its choice; one-click (and any other body) stops list email only.
      const scope: UnsubscribeScope =
        !oneClick && new URLSearchParams(body).get(UNSUBSCRIBE_CHOICE_FIELD) === 'everything'
          ? 'everything'
          : 'list';
      await service.unsubscribe(
        request.params.token,
        oneClick ? 'one-click' : 'unsubscribe page',
        scope,
      );
      return html(reply, unsubscribedPage(productName(), scope));
    },
  );
};
