import type { FastifyError } from 'fastify';
import fp from 'fastify-plugin';
import { STATUS_CODES } from 'node:http';

// node-postgres errors that mean "the database cannot be reached right now".
const unavailableCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EPIPE',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '53300', // too_many_connections
  '08000',
  '08003',
  '08006',
]);

/**
 * True when `error`, or an error it wraps as its `cause` (better-auth wraps the driver's error
 * in its own APIError), says the database cannot be reached.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let depth = 0; error instanceof Error && depth < 5; depth += 1) {
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string' && unavailableCodes.has(code)) return true;
    // The embedded server's unix socket is gone: the server is stopped.
    if (code === 'ENOENT' && (error as { syscall?: unknown }).syscall === 'connect') return true;
    if (
      /timeout exceeded when trying to connect|Connection terminated|database is closed|driver has already been destroyed/i.test(
        error.message,
      )
    )
      return true;
    error = error.cause;
  }
  return false;
}

/** A refusal to answer in the one error shape, with a message the client may show as is. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    /** Each bad field of a document by its path ("product.priceCents"), for a 400. */
    readonly fields?: Record<string, string>,
  ) {
    super(message);
  }
}

/** The one error shape of every endpoint: `{ error, message }`, error naming the status. */
export function errorBody(statusCode: number, message: string): { error: string; message: string } {
  return { error: STATUS_CODES[statusCode] ?? 'Error', message };
}

/**
 * Answers every error in the one shape. Client mistakes and HttpErrors keep their message; other faults are
 * logged and answered without details.
 */
export const errorHandling = fp(async (app) => {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (isDatabaseUnavailable(error)) {
      request.log.error({ err: error }, 'database unavailable');
      return reply
        .code(503)
        .send(
          errorBody(503, 'The service is temporarily unavailable. Please try again in a moment.'),
        );
    }
    const status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 500;
    // An HttpError's message is written for the client, a 502 or 503 included.
    if (status >= 500 && !(error instanceof HttpError)) {
      request.log.error({ err: error }, 'request failed');
      return reply
        .code(status)
        .send(errorBody(500, 'Something went wrong on our side. Please try again later.'));
    }
    const fields = error instanceof HttpError ? error.fields : undefined;
    return reply
      .code(status)
      .send({ ...errorBody(status, error.message), ...(fields && { fields }) });
  });
});
