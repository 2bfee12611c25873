import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import * as z from 'zod/mini';
import { authApi, CODE_LENGTH, type SessionInfo, type SignedInInfo } from '../../shared/auth';
import { errorBody } from '../http/errors';
import { parsedOr400 } from '../http/input';
import { requireSameOrigin } from '../http/same-origin';
import { callAuth, replyWith } from './auth-request';
import { authLimits } from './auth-limits';
import { codeDelivery, isAdminEmail } from './create-auth';
import { sendThrottle } from './send-throttle';

const email = z.pipe(
  z.string({ error: 'Enter your email address.' }).check(z.trim(), z.toLowerCase()),
  z.email({ error: 'Enter a valid email address.' }).check(z.maxLength(254)),
);

export const sendCodeBody = z.object({ email, type: z._default(z.literal('sign-in'), 'sign-in') });

export const signInBody = z.object({
  email,
  otp: z
    .string({ error: 'Enter the code from the email.' })
    .check(
      z.trim(),
      z.minLength(1, { error: 'Enter the code from the email.' }),
      z.maxLength(CODE_LENGTH, { error: `The code has ${CODE_LENGTH} digits.` }),
    ),
});

function tooMany(reply: FastifyReply, retryAfterSeconds: number) {
  return reply
    .code(429)
    .header('retry-after', String(retryAfterSeconds))
    .send(
      errorBody(429, 'Too many codes were requested. Please wait a few minutes and try again.'),
    );
}

/**
 * The only better-auth endpoints the site exposes: request a code, sign in with it, read the
 * session, sign out. Everything else under /api/auth is a 404.
 */
export const authRoutes: FastifyPluginAsync = async (app) => {
  const { auth } = app;
  const { publicUrl } = app.config;
  // Expired counters and codes are deleted by the periodic housekeeping (periodic-plugin.ts).
  const throttle = sendThrottle(app.database.db);
  // Every POST here comes from the site's own sign-in page.
  const post = {
    onRequest: async (request: FastifyRequest) => requireSameOrigin(request, publicUrl),
  };

  app.post(authApi.sendCode, post, async (request, reply) => {
    const body = parsedOr400(sendCodeBody, request.body ?? {});
    // Per client IP first, so one visitor cannot use up the budget of someone else's address.
    for (const [key, rule] of [
      [`ip:${request.ip}`, authLimits.sendsPerIp],
      [`email:${body.email}`, authLimits.sendsPerEmail],
    ] as const) {
      const result = await throttle.hit(key, rule);
      if (!result.allowed) return tooMany(reply, result.retryAfterSeconds);
    }
    const delivery: { failed?: string } = {};
    const answer = await codeDelivery.run(delivery, () => callAuth(auth, publicUrl, request, body));
    if (answer.status === 200 && delivery.failed) {
      return reply
        .code(503)
        .send(
          errorBody(503, 'The code could not be sent right now. Please try again in a moment.'),
        );
    }
    return replyWith(reply, answer, () => ({ success: true }));
  });

  app.post(authApi.signIn, post, async (request, reply) => {
    const body = parsedOr400(signInBody, request.body ?? {});
    const answer = await callAuth(auth, publicUrl, request, body);
    return replyWith(reply, answer, (data): SignedInInfo => {
      const { email } = (data as { user: { email: string } }).user;
      return { user: { email }, isAdmin: isAdminEmail(app.config, email) };
    });
  });

  app.get(authApi.session, async (request, reply) => {
    const answer = await callAuth(auth, publicUrl, request);
    reply.header('cache-control', 'no-store');
    return replyWith(reply, answer, (data): SessionInfo => {
      // better-auth's answer also holds the session token: it stays in the HttpOnly cookie.
      const found = data as { user: { email: string }; session: { expiresAt: string } } | null;
      if (!found) return null;
      const { email } = found.user;
      return {
        user: { email },
        isAdmin: isAdminEmail(app.config, email),
        expiresAt: String(found.session.expiresAt),
      };
    });
  });

  app.post(authApi.signOut, post, async (request, reply) => {
    const answer = await callAuth(auth, publicUrl, request, {});
    return replyWith(reply, answer, () => ({ success: true }));
  });
};
