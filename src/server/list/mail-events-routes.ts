import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import {
  MAIL_EVENTS_PATH,
  MAIL_SIGNATURE_HEADER,
  mailEventsSchema,
} from '../../shared/mail/mail-events-api';
import { HttpError } from '../http/errors';
import { markListFromProvider } from './list-service';

/** A provider's batch of events is small; anything larger is not one. */
const EVENTS_BODY_LIMIT = 64 * 1024;

/** True when `header` is `sha256=` + the hex HMAC-SHA256 of `body` under `secret`. */
export function validSignature(body: Buffer, header: unknown, secret: string): boolean {
  if (typeof header !== 'string') return false;
  const match = /^sha256=([0-9a-f]{64})$/i.exec(header.trim());
  if (!match) return false;
  const expected = createHmac('sha256', secret).update(body).digest();
  return timingSafeEqual(expected, Buffer.from(match[1]!, 'hex'));
}

/**
 * The mail provider's webhook (src/shared/mail/mail-events-api.ts has the contract), registered
 * only with MAIL_WEBHOOK_SECRET. The signature covers the exact bytes sent, so the body is read
 * raw and parsed only once it verifies.
 */
export const mailEventsRoutes: FastifyPluginAsync<{ secret: string }> = async (app, options) => {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'buffer', bodyLimit: EVENTS_BODY_LIMIT },
    (_request, body, done) => done(null, body),
  );

  app.post(MAIL_EVENTS_PATH, async (request, reply) => {
    const body = request.body;
    if (
      !Buffer.isBuffer(body) ||
      !validSignature(body, request.headers[MAIL_SIGNATURE_HEADER], options.secret)
    ) {
      request.log.warn('Mail provider event refused: the signature does not verify');
      throw new HttpError(401, 'The event signature could not be verified.');
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.toString('utf8'));
    } catch {
      throw new HttpError(400, 'The event body is not JSON.');
    }
    const result = mailEventsSchema.safeParse(parsed);
    if (!result.success) throw new HttpError(400, 'The event body is not a bounce or complaint.');
    const events = 'events' in result.data ? result.data.events : [result.data];
    let changed = 0;
    for (const event of events) {
      if (event.type === 'bounce' && event.bounceType !== 'permanent') continue;
      const kind = event.type === 'bounce' ? 'bounced' : 'complained';
      if (await markListFromProvider(app.database.db, { kind, recipient: event.recipient }))
        changed += 1;
    }
    request.log.info({ events: events.length, changed }, 'Mail provider events');
    return reply.send({ received: events.length });
  });
};
