import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { authApi, CODE_LENGTH, type SessionInfo, type SignedInInfo } from '../../shared/auth';
import { callAuth, replyWith } from './auth-request';
import { authLimits } from './auth-limits';
import { codeDelivery, isAdminEmail, type Auth } from './create-auth';
import type { SendThrottle } from './send-throttle';

const email = z
  .string({ message: 'Enter your email address.' })
  .trim()
  .toLowerCase()
  .pipe(z.email({ message: 'Enter a valid email address.' }).max(254));

export const sendCodeBody = z.object({ email, type: z.literal('sign-in').default('sign-in') });

export const signInBody = z.object({
  email,
  otp: z
    .string({ message: 'Enter the code from the email.' })
    .trim()
    .min(1, { message: 'Enter the code from the email.' })
    .max(CODE_LENGTH, { message: `The code has ${CODE_LENGTH} digits.` }),
});

function badRequest(reply: FastifyReply, error: z.ZodError) {
  return reply
    .code(400)
    .send({ error: 'Bad Request', message: error.issues[0]?.message ?? 'Invalid request.' });
}

function tooMany(reply: FastifyReply, retryAfterSeconds: number) {
  return reply.code(429).header('retry-after', String(retryAfterSeconds)).send({
    error: 'Too Many Requests',
    message: 'Too many codes were requested. Please wait a few minutes and try again.',
  });
}

/**
 * The only better-auth endpoints the site exposes: request a code, sign in with it, read the
 * session, sign out. Everything else under /api/auth is a 404.
 */
export function authRoutes(app: FastifyInstance, auth: Auth, throttle: SendThrottle) {
  const { publicUrl } = app.config;
  const trustedOrigin = new URL(publicUrl).origin;
  // Browsers send Origin with every POST; anything else is not the site's own sign-in page.
  const post = {
    onRequest: async (request: FastifyRequest, reply: FastifyReply) => {
      if (request.headers.origin !== trustedOrigin) {
        return reply.code(403).send({
          error: 'Forbidden',
          message: 'This request must come from the site itself.',
        });
      }
    },
  };

  app.post(authApi.sendCode, post, async (request, reply) => {
    const parsed = sendCodeBody.safeParse(request.body ?? {});
    if (!parsed.success) return badRequest(reply, parsed.error);
    // Per client IP first, so one visitor cannot use up the budget of someone else's address.
    for (const [key, rule] of [
      [`ip:${request.ip}`, authLimits.sendsPerIp],
      [`email:${parsed.data.email}`, authLimits.sendsPerEmail],
    ] as const) {
      const result = await throttle.hit(key, rule);
      if (!result.allowed) return tooMany(reply, result.retryAfterSeconds);
    }
    const delivery: { failed?: string } = {};
    const answer = await codeDelivery.run(delivery, () =>
      callAuth(auth, publicUrl, request, parsed.data),
    );
    if (answer.status === 200 && delivery.failed) {
      return reply.code(503).send({
        error: 'Service Unavailable',
        message: 'The code could not be sent right now. Please try again in a moment.',
      });
    }
    return replyWith(reply, answer, () => ({ success: true }));
  });

  app.post(authApi.signIn, post, async (request, reply) => {
    const parsed = signInBody.safeParse(request.body ?? {});
    if (!parsed.success) return badRequest(reply, parsed.error);
    const answer = await callAuth(auth, publicUrl, request, parsed.data);
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
}
