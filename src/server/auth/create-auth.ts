import { betterAuth, type BetterAuthOptions } from 'better-auth';
import { admin, emailOTP } from 'better-auth/plugins';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Config } from '../config/load-config';
import type { Mailer } from '../mail/mailer';
import { sendAnswering } from '../mail/send-answering';
import { authLimits } from './auth-limits';
import { codeEmail } from './code-email';

/** better-auth reads the client IP from this header only; the route adapter always sets it. */
export const CLIENT_IP_HEADER = 'x-soul-reset-client-ip';

/**
 * How the code email of the current request went. better-auth swallows errors thrown while
 * sending, so the route reads the outcome from here to tell the visitor.
 */
export const codeDelivery = new AsyncLocalStorage<{ failed?: string }>();

export type AuthDependencies = {
  config: Config;
  // better-auth's tables are not part of the app's typed schema.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  db: Kysely<any>;
  mailer: Mailer;
  logger: FastifyBaseLogger;
};

export function isAdminEmail(config: Config, email: string): boolean {
  return config.adminEmails.includes(email.trim().toLowerCase());
}

/**
 * better-auth with passwordless email codes and the admin role. Sessions, codes and rate-limit
 * counters live in the app's database (migration 0002), so instances share them.
 */
export function authOptions({ config, db, mailer, logger }: AuthDependencies) {
  if (!config.authSecret) throw new Error('AUTH_SECRET is missing (see config/auth-secret.ts).');
  const roleFor = (email: string) => (isAdminEmail(config, email) ? 'admin' : 'user');
  return {
    appName: 'Soul Reset',
    baseURL: config.publicUrl,
    basePath: '/api/auth',
    secret: config.authSecret,
    trustedOrigins: [config.publicUrl],
    telemetry: { enabled: false },
    database: { db, type: 'postgres', transaction: true },
    user: { modelName: 'auth_user' },
    session: {
      modelName: 'auth_session',
      expiresIn: authLimits.sessionExpiresIn,
      // A fixed lifetime: using a session never pushes its end further out.
      disableSessionRefresh: true,
      cookieCache: { enabled: false },
    },
    account: { modelName: 'auth_account' },
    verification: { modelName: 'auth_verification' },
    rateLimit: {
      // better-auth enables it only in production by default; here it is always on.
      enabled: true,
      storage: 'database',
      modelName: 'auth_rate_limit',
      window: 60,
      max: 100,
    },
    advanced: {
      cookiePrefix: 'soul-reset',
      useSecureCookies: config.publicUrl.startsWith('https:'),
      defaultCookieAttributes: { httpOnly: true, sameSite: 'lax' },
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
    },
    logger: {
      log: (level, message, ...args) => {
        logger[level]({ args }, `auth: ${message}`);
      },
    },
    databaseHooks: {
      user: {
        create: {
          before: async (user) => ({ data: { ...user, role: roleFor(user.email) } }),
        },
      },
    },
    plugins: [
      emailOTP({
        otpLength: authLimits.codeLength,
        expiresIn: authLimits.codeExpiresIn,
        allowedAttempts: authLimits.codeAttempts,
        storeOTP: 'hashed',
        rateLimit: authLimits.verifiesPerIp,
        async sendVerificationOTP({ email, otp }) {
          const { answer } = sendAnswering(mailer, codeEmail(email, otp), config.mailTimeoutMs);
          const result = await answer;
          const delivery = codeDelivery.getStore();
          // No result yet: the server has the whole email and has not answered; the visitor
          // is not kept waiting for that, and can ask for another code if it never arrives.
          if (delivery && result?.status === 'failed') delivery.failed = result.error;
        },
      }),
      admin({ defaultRole: 'user', adminRoles: ['admin'] }),
    ],
  } satisfies BetterAuthOptions;
}

export function createAuth(dependencies: AuthDependencies) {
  return betterAuth(authOptions(dependencies));
}

export type Auth = ReturnType<typeof createAuth>;
