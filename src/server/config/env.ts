import { z } from 'zod';
import { guideUrlDefault, publicConfigDefaults } from '../../shared/public-config';

const emailList = z
  .string()
  .transform((value) =>
    value
      .split(',')
      .map((entry) => entry.trim().toLowerCase())
      .filter(Boolean),
  )
  .pipe(z.array(z.email({ message: 'must be a comma-separated list of email addresses' })).min(1));

const port = z.coerce
  .number({ message: 'must be a whole number between 0 and 65535' })
  .int({ message: 'must be a whole number between 0 and 65535' })
  .min(0, { message: 'must be a whole number between 0 and 65535' })
  .max(65535, { message: 'must be a whole number between 0 and 65535' });

const positiveInt = z.coerce
  .number({ message: 'must be a positive whole number' })
  .int({ message: 'must be a positive whole number' })
  .positive({ message: 'must be a positive whole number' });

const retryDelaysMessage =
  'must be a comma-separated list of 1 to 20 delays in seconds, each above 0 and at most 604800';

/** Seconds before each retry of a failed email, e.g. "30,120,600" (fractions allowed). */
const retryDelays = z
  .string()
  .transform((value) => value.split(',').map((entry) => entry.trim()))
  .pipe(
    z
      .array(
        z
          .string()
          .regex(/^\d+(\.\d+)?$/, { message: retryDelaysMessage })
          .transform(Number)
          .pipe(
            z
              .number()
              .positive({ message: retryDelaysMessage })
              .max(604800, { message: retryDelaysMessage }),
          ),
        { message: retryDelaysMessage },
      )
      .min(1, { message: retryDelaysMessage })
      .max(20, { message: retryDelaysMessage }),
  );

function urlWithProtocols(protocols: string[], example: string) {
  return z.string().refine(
    (value) => {
      try {
        return protocols.includes(new URL(value).protocol);
      } catch {
        return false;
      }
    },
    { message: `must be a URL like ${example}` },
  );
}

const httpUrl = urlWithProtocols(['http:', 'https:'], 'https://example.com/path');

/** Empty strings in the environment mean "not set" (as with `FOO= npm start`). */
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (value === '' ? undefined : value), schema.optional());

/**
 * Every setting of DESIGN.md's configuration table. This schema is the only description of
 * the environment: the Config type is inferred from it.
 */
export const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: optional(port).default(3000),
  HOST: optional(z.string().min(1)).default('127.0.0.1'),
  DATA_DIR: optional(z.string().min(1)).default('./data'),
  DATABASE_URL: optional(
    urlWithProtocols(['postgres:', 'postgresql:'], 'postgres://user:password@host:5432/database'),
  ),
  OWNER_EMAIL: optional(z.email({ message: 'must be an email address' })).default(
    'owner@example.com',
  ),
  ADMIN_EMAILS: optional(emailList),
  SMTP_URL: optional(urlWithProtocols(['smtp:', 'smtps:'], 'smtp://user:password@host:587')),
  MAIL_FROM: optional(z.string().min(3)).default('Soul Reset <no-reply@soulreset.local>'),
  MAIL_TIMEOUT_MS: optional(
    z.coerce
      .number({ message: 'must be a whole number of milliseconds from 100 to 10000' })
      .int({ message: 'must be a whole number of milliseconds from 100 to 10000' })
      .min(100, { message: 'must be a whole number of milliseconds from 100 to 10000' })
      .max(10000, { message: 'must be a whole number of milliseconds from 100 to 10000' }),
  ).default(10000),
  MAIL_RETRY_DELAYS: optional(retryDelays).default([30, 120, 600, 3600, 21600, 86400]),
  MAIL_API_URL: optional(httpUrl),
  MAIL_API_KEY: optional(z.string().min(1)),
  MAIL_MODEL: optional(z.string().min(1)),
  MAIL_PROJECT_ID: optional(z.string().min(1)),
  CHECKOUT_URL: optional(httpUrl).default(publicConfigDefaults.checkoutUrl),
  DOWNLOAD_URL: optional(z.string().min(1)).default(publicConfigDefaults.downloadUrl),
  GUIDE_URL: optional(z.string().min(1)).default(guideUrlDefault),
  AUTH_SECRET: optional(
    z.string().min(32, { message: 'must be at least 32 characters (use a random string)' }),
  ),
  PUBLIC_URL: optional(httpUrl),
  REDIS_URL: optional(urlWithProtocols(['redis:', 'rediss:'], 'redis://127.0.0.1:6379')),
  FORM_RATE_LIMIT: optional(positiveInt).default(10),
  TRUST_PROXY: optional(z.string().min(1)),
  STRIPE_WEBHOOK_SECRET: optional(
    z.string().regex(/^whsec_\S+$/, { message: "must be the endpoint's signing secret (whsec_…)" }),
  ),
  STRIPE_SECRET_KEY: optional(
    z
      .string()
      .regex(/^(sk|rk)_\S+$/, { message: 'must be a secret or restricted key (sk_… or rk_…)' }),
  ),
  STRIPE_API_URL: optional(httpUrl),
  BUNDLE_FILE: optional(z.string().min(1)),
  PRODUCT_PRICE_CENTS: optional(positiveInt).default(2700),
  PRODUCT_CURRENCY: optional(
    z
      .string()
      .regex(/^[A-Za-z]{3}$/, { message: 'must be a three-letter currency code such as usd' })
      .transform((value) => value.toLowerCase()),
  ).default('usd'),
  DOWNLOAD_LINK_HOURS: optional(
    z.coerce
      .number({ message: 'must be a number of hours above 0 and at most 8760' })
      .positive({ message: 'must be a number of hours above 0 and at most 8760' })
      .max(8760, { message: 'must be a number of hours above 0 and at most 8760' }),
  ).default(24),
  DOWNLOAD_LIMIT: optional(positiveInt.max(1000, { message: 'must be at most 1000' })).default(5),
  /** Unset: 5 in production (a balancer's health checks notice within it), 0 otherwise. */
  DRAIN_SECONDS: optional(
    z.coerce
      .number({ message: 'must be a number of seconds from 0 to 300' })
      .min(0, { message: 'must be a number of seconds from 0 to 300' })
      .max(300, { message: 'must be a number of seconds from 0 to 300' }),
  ),
  LOG_LEVEL: optional(
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
      message: 'must be one of fatal, error, warn, info, debug, trace, silent',
    }),
  ).default('info'),
});

export type Env = z.infer<typeof envSchema>;
