import type { FastifyPluginAsync } from 'fastify';
import * as z from 'zod/mini';
import { MAX_EMAIL_LENGTH } from '../../shared/admin/people-api';
import { parsedOr400 } from '../http/input';
import { erasePerson, findPerson } from './person-data';

const NOT_AN_ADDRESS = 'Type one email address, like ann@example.com.';

const address = z.string({ error: NOT_AN_ADDRESS }).check(
  z.trim(),
  z.minLength(3, NOT_AN_ADDRESS),
  z.maxLength(MAX_EMAIL_LENGTH, `An email address has at most ${MAX_EMAIL_LENGTH} characters.`),
  z.regex(/^[^\s@]+@[^\s@]+$/, NOT_AN_ADDRESS),
  z.refine((text) => !text.includes('\u0000'), NOT_AN_ADDRESS),
);

const lookup = z.object({ email: address });
const eraseBody = z.strictObject(
  { email: address },
  { error: 'The body must be { "email": "…" } and nothing else.' },
);

/** The People tool of shared/admin/people-api.ts, inside the /api/admin scope. */
export const peopleRoutes: FastifyPluginAsync = async (scope) => {
  const db = scope.database.db;

  scope.get('/people', async (request) => {
    const { email } = parsedOr400(lookup, request.query ?? {});
    return findPerson(db, email);
  });

  scope.post('/people/erase', async (request) => {
    const { email } = parsedOr400(eraseBody, request.body ?? {});
    return erasePerson(db, email, request.admin!.email);
  });
};
