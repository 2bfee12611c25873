import type { FastifyReply, FastifyRequest } from 'fastify';
import { errorBody } from '../http/errors';
import type { Auth } from './create-auth';
import { CLIENT_IP_HEADER } from './create-auth';

// Never passed on: a visitor could set them to pose as another client (rate limits).
const DROPPED_HEADERS = new Set([
  'content-length',
  'transfer-encoding',
  'connection',
  'forwarded',
  'x-forwarded-for',
  'x-forwarded-host',
  'x-forwarded-proto',
  'x-real-ip',
  'x-client-ip',
  'cf-connecting-ip',
  'true-client-ip',
  CLIENT_IP_HEADER,
]);

export type AuthAnswer = { status: number; data: unknown; headers: Headers };

/**
 * Hands a Fastify request to better-auth's fetch handler. The client IP is Fastify's
 * `request.ip` (which honours TRUST_PROXY), never a header the visitor sent.
 */
export async function callAuth(
  auth: Auth,
  publicUrl: string,
  request: FastifyRequest,
  body?: unknown,
): Promise<AuthAnswer> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined || DROPPED_HEADERS.has(name)) continue;
    headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  headers.set(CLIENT_IP_HEADER, request.ip);
  if (body !== undefined) headers.set('content-type', 'application/json');
  const response = await auth.handler(
    new Request(new URL(request.url, publicUrl), {
      method: request.method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );
  const text = await response.text();
  return {
    status: response.status,
    data: text ? JSON.parse(text) : null,
    headers: response.headers,
  };
}

/** Passes better-auth's cookies on, and answers its errors in the app's `{error, message}` shape. */
export function replyWith(
  reply: FastifyReply,
  answer: AuthAnswer,
  toBody: (data: unknown) => unknown,
): FastifyReply {
  const cookies = answer.headers.getSetCookie();
  if (cookies.length > 0) reply.header('set-cookie', cookies);
  if (answer.status < 400) return reply.code(answer.status).send(toBody(answer.data));

  const retryAfter = answer.headers.get('x-retry-after');
  if (retryAfter) reply.header('retry-after', retryAfter);
  if (answer.status >= 500) {
    reply.log.error({ auth: answer.data }, 'auth request failed');
    // A 503 carries a message written for visitors (the code email could not be sent).
    const message =
      answer.status === 503 && hasMessage(answer.data)
        ? answer.data.message
        : 'Something went wrong on our side. Please try again later.';
    return reply.code(answer.status).send(errorBody(answer.status, message));
  }
  return reply
    .code(answer.status)
    .send(
      errorBody(
        answer.status,
        hasMessage(answer.data) ? answer.data.message : 'The request was refused.',
      ),
    );
}

function hasMessage(data: unknown): data is { message: string } {
  return (
    typeof data === 'object' &&
    data !== null &&
    typeof (data as { message?: unknown }).message === 'string'
  );
}
