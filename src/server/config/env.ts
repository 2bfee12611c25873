import * as z from 'zod/mini';
import { guideUrlDefault } from '../../shared/public-config';
import { publicConfigDefaults } from '../../shared/public-config-defaults';
import { seedSettingsDefaults } from '../../shared/store/seed-content';

const emailList = z.pipe(
  z.pipe(
    z.string(),
    z.transform((value) =>
      value
        .split(',')
        .map((entry) => entry.trim().toLowerCase())
        .filter(Boolean),
    ),
  ),
  z
    .array(z.email({ error: 'must be a comma-separated list of email addresses' }))
    .check(z.minLength(1)),
);

/** A number from the environment that must be whole and within [min, max], in one message. */
function wholeNumber(min: number, max: number, message: string) {
  return z.coerce
    .number({ error: message })
    .check(
      z.int({ error: message }),
      z.minimum(min, { error: message }),
      z.maximum(max, { error: message }),
    );
}

const port = wholeNumber(0, 65535, 'must be a whole number between 0 and 65535');

const positiveIntMessage = 'must be a positive whole number';
const positiveInt = z.coerce
  .number({ error: positiveIntMessage })
  .check(z.int({ error: positiveIntMessage }), z.positive({ error: positiveIntMessage }));

const retryDelaysMessage =
  'must be a comma-separated list of 1 to 20 delays in seconds, each above 0 and at most 604800';

/** Seconds before each retry of a failed email, e.g. "30,120,600" (fractions allowed). */
const retryDelays = z.pipe(
  z.pipe(
    z.string(),
    z.transform((value) => value.split(',').map((entry) => entry.trim())),
  ),
  z
    .array(
      z.pipe(
        z.pipe(
          z.string().check(z.regex(/^\d+(\.\d+)?$/, { error: retryDelaysMessage })),
          z.transform(Number),
        ),
        z
          .number()
          .check(
            z.positive({ error: retryDelaysMessage }),
            z.maximum(604800, { error: retryDelaysMessage }),
          ),
      ),
      { error: retryDelaysMessage },
    )
    .check(
      z.minLength(1, { error: retryDelaysMessage }),
      z.maxLength(20, { error: retryDelaysMessage }),
    ),
);

function urlWithProtocols(protocols: string[], example: string) {
  return z.string().check(
    z.refine(
      (value) => {
        try {
          return protocols.includes(new URL(value).protocol);
        } catch {
          return false;
        }
      },
      { error: `must be a URL like ${example}` },
    ),
  );
}

const httpUrl = urlWithProtocols(['http:', 'https:'], 'https://example.com/path');

const nonEmpty = () => z.string().check(z.minLength(1));

/** Empty strings in the environment mean "not set" (as with `FOO= npm start`). */
const optional = <T extends z.ZodMiniType>(schema: T) =>
  z.pipe(
    z.transform((value: unknown) => (value === '' ? undefined : value)),
    z.optional(schema),
  );

/**
 * Every setting of DESIGN.md's configuration table. This schema is the only description of
 * the environment: the Config type is inferred from it.
 */
export const envSchema = z.object({
  NODE_ENV: z._default(z.enum(['development', 'production', 'test']), 'development'),
  PORT: z._default(optional(port), 3000),
  HOST: z._default(optional(nonEmpty()), '127.0.0.1'),
  DATA_DIR: z._default(optional(nonEmpty()), './data'),
  DATABASE_URL: optional(
    urlWithProtocols(['postgres:', 'postgresql:'], 'postgres://user:password@host:5432/database'),
  ),
  OWNER_EMAIL: z._default(
    optional(z.email({ error: 'must be an email address' })),
    'owner@example.com',
  ),
  ADMIN_EMAILS: optional(emailList),
  SMTP_URL: optional(urlWithProtocols(['smtp:', 'smtps:'], 'smtp://user:password@host:587')),
  MAIL_FROM: z._default(
    optional(z.string().check(z.minLength(3))),
    'Soul Reset <no-reply@soulreset.local>',
  ),
  MAIL_TIMEOUT_MS: z._default(
    optional(wholeNumber(100, 10000, 'must be a whole number of milliseconds from 100 to 10000')),
    10000,
  ),
  MAIL_RETRY_DELAYS: z._default(optional(retryDelays), [30, 120, 600, 3600, 21600, 86400]),
  MAIL_API_URL: optional(httpUrl),
  MAIL_API_KEY: optional(nonEmpty()),
  MAIL_MODEL: optional(nonEmpty()),
  MAIL_PROJECT_ID: optional(nonEmpty()),
  CHECKOUT_URL: z._default(optional(httpUrl), seedSettingsDefaults.checkoutUrl),
  DOWNLOAD_URL: z._default(optional(nonEmpty()), publicConfigDefaults.downloadUrl),
  GUIDE_URL: z._default(optional(nonEmpty()), guideUrlDefault),
  AUTH_SECRET: optional(
    z
      .string()
      .check(z.minLength(32, { error: 'must be at least 32 characters (use a random string)' })),
  ),
  PUBLIC_URL: optional(httpUrl),
  REDIS_URL: optional(urlWithProtocols(['redis:', 'rediss:'], 'redis://127.0.0.1:6379')),
  FORM_RATE_LIMIT: z._default(optional(positiveInt), 10),
  TRUST_PROXY: optional(nonEmpty()),
  STRIPE_WEBHOOK_SECRET: optional(
    z
      .string()
      .check(z.regex(/^whsec_\S+$/, { error: "must be the endpoint's signing secret (whsec_…)" })),
  ),
  STRIPE_SECRET_KEY: optional(
    z
      .string()
      .check(
        z.regex(/^(sk|rk)_\S+$/, { error: 'must be a secret or restricted key (sk_… or rk_…)' }),
      ),
  ),
  STRIPE_API_URL: optional(httpUrl),
  BUNDLE_FILE: optional(nonEmpty()),
  PRODUCT_PRICE_CENTS: z._default(optional(positiveInt), 2700),
  PRODUCT_CURRENCY: z._default(
    optional(
      z.pipe(
        z
          .string()
          .check(
            z.regex(/^[A-Za-z]{3}$/, { error: 'must be a three-letter currency code such as usd' }),
          ),
        z.transform((value) => value.toLowerCase()),
      ),
    ),
    'usd',
  ),
  DOWNLOAD_LINK_HOURS: z._default(
    optional(
      z.coerce
        .number({ error: 'must be a number of hours above 0 and at most 8760' })
        .check(
          z.positive({ error: 'must be a number of hours above 0 and at most 8760' }),
          z.maximum(8760, { error: 'must be a number of hours above 0 and at most 8760' }),
        ),
    ),
    24,
  ),
  DOWNLOAD_LIMIT: z._default(
    optional(positiveInt.check(z.maximum(1000, { error: 'must be at most 1000' }))),
    5,
  ),
  UPLOAD_IMAGE_MAX_MB: z._default(
    optional(wholeNumber(1, 100, 'must be a whole number of megabytes from 1 to 100')),
    10,
  ),
  UPLOAD_FILE_MAX_MB: z._default(
    optional(wholeNumber(1, 10240, 'must be a whole number of megabytes from 1 to 10240')),
    200,
  ),
  /** Unset: 5 in production (a balancer's health checks notice within it), 0 otherwise. */
  DRAIN_SECONDS: optional(
    z.coerce
      .number({ error: 'must be a number of seconds from 0 to 300' })
      .check(
        z.minimum(0, { error: 'must be a number of seconds from 0 to 300' }),
        z.maximum(300, { error: 'must be a number of seconds from 0 to 300' }),
      ),
  ),
  LOG_LEVEL: z._default(
    optional(
      z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
        error: 'must be one of fatal, error, warn, info, debug, trace, silent',
      }),
    ),
    'info',
  ),
});

export type Env = z.infer<typeof envSchema>;
