import fc from 'fast-check';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import {
  EVENTS_PATH,
  insightEventNames,
  insightPaths,
} from '../../../src/shared/insights/insight-events';
import {
  ADMIN_INSIGHTS_PATH,
  insightEventSchema,
  type Insights,
} from '../../../src/shared/insights/insights-api';
import { freshIp } from '../sign-in';
import { entriesOf, extraEntries, hostileBody, type FuzzBody } from './fuzz-body';
import { answerProblem } from './fuzz-route';
import { hostileString, hostileValue } from './hostile-values';

const orValid = <T>(valid: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 3, arbitrary: valid }, { weight: 1, arbitrary: hostileValue(1500) });

const jsonBodies = hostileBody(
  entriesOf(
    {
      name: orValid(fc.constantFrom(...insightEventNames)),
      path: orValid(fc.constantFrom(...insightPaths)),
    },
    extraEntries,
  ),
);

/** Collector bodies: mostly as sendBeacon sends them (JSON as text/plain), valid and hostile. */
export const eventBodies: fc.Arbitrary<FuzzBody> = fc.oneof(
  jsonBodies,
  jsonBodies.map((body) => ({ ...body, contentType: 'text/plain;charset=UTF-8' })),
);

export function sendEvent(app: FastifyInstance, body: FuzzBody) {
  return app.inject({
    method: 'POST',
    url: EVENTS_PATH,
    remoteAddress: freshIp(),
    headers: {
      'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0',
      ...(body.contentType === undefined ? {} : { 'content-type': body.contentType }),
    },
    payload: body.payload,
  });
}

/** What the route may read out of a body: JSON sent as JSON or as plain text. */
function eventIn(body: FuzzBody): unknown {
  const type = body.contentType?.split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json' && type !== 'text/plain') return undefined;
  try {
    return JSON.parse(body.payload.toString()) as unknown;
  } catch {
    return undefined;
  }
}

/** 204 only for an event the schema takes, no cookie ever, a clear 4xx otherwise. */
export function checkEvent(body: FuzzBody, response: LightMyRequestResponse) {
  const problem = answerProblem(response, 'api');
  if (problem) return problem;
  if (response.headers['set-cookie'] !== undefined) return 'set a cookie';
  if (response.statusCode < 400) {
    if (response.statusCode !== 204) return `answered ${response.statusCode}`;
    if (!insightEventSchema.safeParse(eventIn(body)).success) return 'took an invalid event';
  }
  return null;
}

const isoDay = fc
  .date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
  .map((date) => date.toISOString().slice(0, 10));

/** Query strings for the insights: real ranges, and hostile or missing ends. */
export const insightQueries: fc.Arbitrary<string> = fc
  .record(
    { from: fc.oneof(isoDay, hostileString(200)), to: fc.oneof(isoDay, hostileString(200)) },
    { requiredKeys: [] },
  )
  .map((query) =>
    Object.entries(query)
      // Every byte percent-encoded: a lone surrogate arrives as the bytes UTF-8 gives it.
      .map(
        ([key, value]) =>
          `${key}=${[...Buffer.from(value)].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('')}`,
      )
      .join('&'),
  );

export function sendInsights(app: FastifyInstance, cookie: string, query: string) {
  return app.inject({
    method: 'GET',
    url: `${ADMIN_INSIGHTS_PATH}?${query}`,
    headers: { cookie },
  });
}

/** A whole answer with one entry per day of the range, or a clear 400. */
export function checkInsights(_query: string, response: LightMyRequestResponse) {
  const problem = answerProblem(response, 'api');
  if (problem) return problem;
  if (response.statusCode >= 400) return null;
  const answer = response.json<Insights>();
  const span = (Date.parse(answer.to) - Date.parse(answer.from)) / 86_400_000 + 1;
  if (answer.days.length !== span) return `answered ${answer.days.length} days for ${span}`;
  if (answer.funnel.length !== 5) return `answered a funnel of ${answer.funnel.length} steps`;
  return null;
}

/** Stored events that break the rules the database does not enforce itself. */
export async function invalidEvents(app: FastifyInstance) {
  const rows = await app.database.db.selectFrom('insight_events').selectAll().execute();
  const bad = rows.filter(
    (row) =>
      !(insightPaths as readonly string[]).includes(row.path) ||
      !/^[0-9a-f]{32}$/.test(row.visitor),
  );
  return { invalid: bad.length, first: bad[0] && JSON.stringify(bad[0]) };
}
