import type { FastifyPluginAsync } from 'fastify';
import { EVENT_BODY_LIMIT, EVENTS_PATH } from '../../shared/insights/insight-events';
import { insightEventSchema } from '../../shared/insights/insights-api';
import { HttpError } from '../http/errors';
import { parsedOr400 } from '../http/input';
import { utcDay } from '../../shared/utc-days';
import { DIRECT } from '../../shared/insights/visit-source';
import { dailyVisitor } from './daily-visitor';
import { channelOf } from './channel';
import { clientClassOf } from './user-agent-class';

/** A visitor's pages and clicks send a handful a minute; more is a script. */
const EVENTS_PER_MINUTE = 60;

/** Crawlers that run scripts are not visitors; neither is a request without a user agent. */
const NOT_A_VISITOR =
  /(?:google|bing|duckduck|apple|yandex|baidu|petal|ahrefs|semrush|gpt|twitter|linkedin)bot|spider|crawler|slurp|facebookexternalhit|^$/i;

function bodyOf(raw: unknown): unknown {
  if (typeof raw !== 'string') return raw;
  try {
    return JSON.parse(raw);
  } catch {
    throw new HttpError(400, 'The event is not JSON.');
  }
}

/**
 * POST /api/events (DESIGN.md "Insights"): the collector's sendBeacon, a JSON text body,
 * with the visit's source (DESIGN.md "Sources and campaigns"), whose channel the server gives;
 * the user agent is read for its browser and device class, and forgotten.
 * Always 204 for a valid event, stored or not, and never a cookie: an event sent under
 * Global Privacy Control, or by a crawler, is answered the same and forgotten.
 */
export const eventRoutes: FastifyPluginAsync = async (app) => {
  const visitorOf = dailyVisitor(app.database.db);

  app.post(
    EVENTS_PATH,
    {
      bodyLimit: EVENT_BODY_LIMIT,
      config: { rateLimit: { max: EVENTS_PER_MINUTE, timeWindow: 60_000 } },
    },
    async (request, reply) => {
      const event = parsedOr400(insightEventSchema, bodyOf(request.body), 'Invalid event');
      reply.header('cache-control', 'no-store');
      const userAgent = request.headers['user-agent'] ?? '';
      if (request.headers['sec-gpc'] === '1' || NOT_A_VISITOR.test(userAgent)) {
        return reply.code(204).send();
      }
      const day = utcDay();
      const visitor = await visitorOf(day, request.ip, userAgent);
      const source = event.source ?? DIRECT;
      const medium = event.medium ?? '';
      await app.database.db
        .insertInto('insight_events')
        .values({
          day,
          name: event.name,
          path: event.path,
          visitor,
          source,
          medium,
          campaign: event.campaign ?? '',
          channel: channelOf({ source, medium, channel: event.channel }),
          content: event.content ?? '',
          term: event.term ?? '',
          ...clientClassOf(userAgent),
        })
        .execute();
      return reply.code(204).send();
    },
  );
};
