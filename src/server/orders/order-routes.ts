import type { FastifyInstance, FastifyPluginAsync, FastifyReply } from 'fastify';
import type Stripe from 'stripe';
import {
  RESEND_LINK_PATH,
  SESSION_DOWNLOAD_MS,
  resendLinkSchema,
  sessionDownloadPath,
  sessionIdSchema,
  type LinkProblem,
  type ResendLinkAnswer,
  type SessionStatus,
} from '../../shared/orders/order-api';
import { paths } from '../../shared/paths';
import { firstIssue } from '../../shared/forms/form-schemas';
import { HttpError } from '../http/errors';
import { parsedOr400 } from '../http/input';
import type { StripeSettings } from '../config/load-config';
import { productToSend, sendProduct } from './product-file';
import { checkBundleFile } from './bundle-file';
import { checkoutRoute } from './checkout-route';
import { checkoutSessionSchema, sessionOutcome } from './checkout-session';
import { useLink } from './download-links';
import { applySession, requestNewLink, type OrderRow, type OrderSettings } from './fulfilment';
import { createListService } from '../list/list-service';
import { handleEvent } from './payment-events';
import { retrieveSession, stripeClient, verifiedEvent } from '../stripe/stripe-api';

export const WEBHOOK_PATH = '/api/webhooks/stripe';
/** Stripe's events are a few KB; a body this large is not one. */
const WEBHOOK_BODY_LIMIT = 512 * 1024;
/** How often one instance asks Stripe about the same session while a thank-you page polls. */
const STRIPE_LOOKUP_INTERVAL_MS = 5000;
const REMEMBERED_LOOKUPS = 10_000;

/** "jane@example.com" → "j•••@example.com": enough for the buyer to know which inbox. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 1) return '•••';
  return `${email[0]}•••${email.slice(at)}`;
}

function linkProblemPage(reply: FastifyReply, problem: LinkProblem) {
  return reply
    .header('cache-control', 'no-store')
    .redirect(`/#${paths.downloadLink}?reason=${problem}`, 302);
}

function sessionDownloadOpen(order: OrderRow | undefined): boolean {
  return (
    order?.status === 'paid' &&
    order.links_revoked_at === null &&
    order.paid_at !== null &&
    Date.now() - order.paid_at.getTime() < SESSION_DOWNLOAD_MS
  );
}

/** Why the thank-you page's direct download is closed. */
function sessionDownloadProblem(order: OrderRow | undefined): LinkProblem {
  switch (order?.status) {
    case 'paid':
      return order.links_revoked_at ? 'revoked' : 'expired';
    case 'refunded':
    case 'disputed':
      return 'revoked';
    default:
      return 'invalid';
  }
}

function sessionStatus(order: OrderRow | undefined): SessionStatus {
  if (!order) return { status: 'pending' };
  if (order.status !== 'paid') return { status: order.status };
  return {
    status: 'paid',
    maskedEmail: maskEmail(order.email),
    ...(sessionDownloadOpen(order) && { downloadUrl: sessionDownloadPath(order.session_id) }),
  };
}

/**
 * The public side of verified purchases (DESIGN.md "Selling for real"; shared/orders/order-api.ts
 * has the contract), registered only with STRIPE_WEBHOOK_SECRET: Stripe's webhook, the thank-you
 * page's session status and direct download, emailed download links and the buyer's request for
 * a new one. The admin's Orders panel is admin-order-routes.ts.
 */
export const orderRoutes: FastifyPluginAsync<{
  stripe: StripeSettings;
  bundleFile: string;
}> = async (app, { stripe: stripeSettings, bundleFile }) => {
  await checkBundleFile(bundleFile);
  const options = {
    webhookSecret: stripeSettings.webhookSecret,
    stripe: stripeClient(stripeSettings),
    bundleFile,
  };
  const { db } = app.database;
  const settings: OrderSettings = {
    ...app.config,
    store: app.store,
    list: createListService({
      db: app.database.db,
      config: app.config,
      store: app.store,
      wakeWorker: () => app.deliveryWorker.wake(),
    }),
  };
  const wake = () => app.deliveryWorker.wake();
  if (options.stripe) await app.register(checkoutRoute, { stripe: options.stripe });

  // Stripe signs the exact bytes it sent, so this route reads the body raw.
  await app.register(async (scope) => {
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser(
      'application/json',
      { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT },
      (_request, body, done) => done(null, body),
    );
    scope.post(WEBHOOK_PATH, async (request, reply) => {
      const signature = request.headers['stripe-signature'];
      let event: Stripe.Event;
      try {
        if (typeof signature !== 'string' || !Buffer.isBuffer(request.body)) throw new Error();
        event = verifiedEvent(request.body, signature, options.webhookSecret);
      } catch {
        request.log.warn('Stripe webhook refused: the signature does not verify');
        throw new HttpError(400, 'The webhook signature could not be verified.');
      }
      const outcome = await handleEvent(db, settings, event);
      if (outcome.status === 'malformed') {
        request.log.error({ event: event.id, type: event.type }, outcome.message);
        throw new HttpError(400, outcome.message);
      }
      if (outcome.status === 'handled' && outcome.queued) wake();
      request.log.info(
        { event: event.id, type: event.type, outcome: outcome.status },
        'Stripe event',
      );
      return reply.send({ received: true });
    });
  });

  // The session's order, asking Stripe (at most every few seconds per session) while the
  // webhook has not told us it is paid: the page confirms itself when the webhook is late.
  const lastLookup = new Map<string, number>();
  async function orderOfSession(sessionId: string, log: FastifyInstance['log']) {
    const order = await db
      .selectFrom('orders')
      .selectAll()
      .where('session_id', '=', sessionId)
      .executeTakeFirst();
    const stripe = options.stripe;
    if (!stripe || (order && order.status !== 'pending')) return order;
    const now = Date.now();
    if (now - (lastLookup.get(sessionId) ?? 0) < STRIPE_LOOKUP_INTERVAL_MS) return order;
    lastLookup.delete(sessionId);
    lastLookup.set(sessionId, now);
    if (lastLookup.size > REMEMBERED_LOOKUPS) lastLookup.delete(lastLookup.keys().next().value!);
    try {
      const found = checkoutSessionSchema.safeParse(await retrieveSession(stripe, sessionId));
      if (!found.success) return order;
      const change = await db
        .transaction()
        .execute((trx) => applySession(trx, settings, found.data, sessionOutcome(found.data)));
      if (change.queued) wake();
      return change.order;
    } catch (error) {
      log.warn({ err: error, sessionId }, 'Could not ask Stripe about a checkout session');
      return order;
    }
  }

  const sessionParams = (params: unknown) => {
    const id = (params as { id: string }).id;
    return sessionIdSchema.safeParse(id).success ? id : undefined;
  };

  // The Payment Link's redirect: the page lives in the hash.
  app.get('/thank-you', async (request, reply) => {
    const id = (request.query as { session_id?: unknown }).session_id;
    const query =
      typeof id === 'string' && sessionIdSchema.safeParse(id).success ? `?session_id=${id}` : '';
    return reply.redirect(`/#${paths.thankYou}${query}`, 302);
  });

  app.get(
    '/api/orders/session/:id',
    { config: { rateLimit: { max: 120, timeWindow: 60_000 } } },
    async (request, reply): Promise<SessionStatus> => {
      reply.header('cache-control', 'no-store');
      const id = sessionParams(request.params);
      if (!id) return { status: 'pending' };
      return sessionStatus(await orderOfSession(id, request.log));
    },
  );

  app.get(
    '/api/orders/session/:id/download',
    { exposeHeadRoute: false, config: { rateLimit: { max: 30, timeWindow: 60_000 } } },
    async (request, reply) => {
      const id = sessionParams(request.params);
      const order = id ? await orderOfSession(id, request.log) : undefined;
      if (!sessionDownloadOpen(order)) return linkProblemPage(reply, sessionDownloadProblem(order));
      return sendProduct(app, reply, await productToSend(app, options.bundleFile));
    },
  );

  // No HEAD: a mail scanner's probe must not count as a download.
  app.get<{ Params: { token: string } }>(
    '/download/:token',
    { exposeHeadRoute: false, config: { rateLimit: { max: 30, timeWindow: 60_000 } } },
    async (request, reply) => {
      // Found first: a download that cannot be served does not count against the link.
      const product = await productToSend(app, options.bundleFile);
      const used = await useLink(db, request.params.token);
      if (!used.ok) return linkProblemPage(reply, used.problem);
      request.log.info({ order: used.orderId }, 'Product downloaded');
      return sendProduct(app, reply, product);
    },
  );

  app.post(
    RESEND_LINK_PATH,
    { bodyLimit: 4096, config: { rateLimit: { max: 5, timeWindow: 10 * 60_000 } } },
    async (request, reply) => {
      const { email } = parsedOr400(resendLinkSchema, request.body, firstIssue);
      const sent = await db.transaction().execute((trx) => requestNewLink(trx, settings, email));
      if (sent) wake();
      const answer: ResendLinkAnswer = { status: 'accepted' };
      return reply.code(202).send(answer);
    },
  );
};
