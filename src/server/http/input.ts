import * as z from 'zod/mini';
import { HttpError } from './errors';

/**
 * The one way a route reads its input (params, query or body): the value as its zod schema
 * parses it, or a 400 in the one error shape. The message is the first problem's, after
 * `what: ` when `what` names the part, or as `what` describes the error.
 */
export function parsedOr400<T extends z.ZodMiniType>(
  schema: T,
  value: unknown,
  what?: string | ((error: z.core.$ZodError) => string),
): z.output<T> {
  const result = z.safeParse(schema, value);
  if (result.success) return result.data;
  if (typeof what === 'function') throw new HttpError(400, what(result.error));
  const message = result.error.issues[0]?.message ?? 'invalid';
  throw new HttpError(400, what ? `${what}: ${message.replace(/\.$/, '')}.` : message);
}

/**
 * The deepest page any list answers: 100 million rows at ten a page. Beyond it is not a page
 * anyone asked for, and the offset stays far inside what PostgreSQL takes.
 */
export const MAX_PAGE = 10_000_000;

const NOT_A_PAGE = `The page must be a whole number from 0 to ${MAX_PAGE}.`;

/** `?page=N` of a list: digits only, from 0 to MAX_PAGE; absent, the first page (0). */
export const pageField = z._default(
  z.pipe(
    z.string({ error: NOT_A_PAGE }).check(z.regex(/^\d+$/, { error: NOT_A_PAGE })),
    z.pipe(z.transform(Number), z.number().check(z.maximum(MAX_PAGE, { error: NOT_A_PAGE }))),
  ),
  0,
);

/** A query that carries a page and anything else (the rest is read by its own schema). */
export const pageQuery = z.object({ page: pageField });

const NOT_AN_ID = 'The id must be a positive whole number.';

/** A row id in a path: a positive whole number that JavaScript holds exactly. */
export const idField = z.pipe(
  z.string({ error: NOT_AN_ID }).check(z.regex(/^[1-9]\d{0,15}$/, { error: NOT_AN_ID })),
  z.pipe(
    z.transform(Number),
    z.number().check(z.refine(Number.isSafeInteger, { error: NOT_AN_ID })),
  ),
);

/** `/…/:id` of a route whose id is a row's. */
export const idParam = z.object({ id: idField });
