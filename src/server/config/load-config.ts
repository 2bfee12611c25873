import path from 'node:path';
import type * as z from 'zod/mini';
import type { PriceRules } from '../../shared/store/price-history';
import { envSchema, type Env } from './env';

export type MailSettings =
  | { transport: 'outbox' }
  | { transport: 'smtp'; url: string }
  | { transport: 'api'; url: string; key: string; model: string; projectId: string };

/** DESIGN.md "Selling for real": on only with the webhook's signing secret. */
export type StripeSettings = {
  webhookSecret: string;
  /** With it, the thank-you page also asks Stripe about a session the webhook has not told. */
  secretKey: string | undefined;
  /** Stripe's API unless set (tests point it at a local server). */
  apiUrl: string | undefined;
  /** STRIPE_AUTOMATIC_TAX: Stripe Tax on the Checkout Sessions the site creates. */
  automaticTax: boolean;
  /** STRIPE_TAX_BEHAVIOR: whether the price includes the tax. */
  taxBehavior: 'inclusive' | 'exclusive';
};

/** What is sold and how its download links behave. */
export type ProductSettings = {
  /** Absolute path of the file a download link streams; undefined means the bundled sample. */
  file: string | undefined;
  priceCents: number;
  /** Lower case, as Stripe writes it. */
  currency: string;
  linkHours: number;
  downloadLimit: number;
};

export type Config = {
  env: Env['NODE_ENV'];
  port: number;
  host: string;
  /** Absolute path. */
  dataDir: string;
  databaseUrl: string | undefined;
  ownerEmail: string;
  adminEmails: string[];
  mailFrom: string;
  mail: MailSettings;
  /** A send that takes longer is abandoned and recorded as failed. */
  mailTimeoutMs: number;
  /** Milliseconds before each retry of a failed email (MAIL_RETRY_DELAYS, given in seconds). */
  mailRetryDelaysMs: number[];
  /** List emails a second at most, across every instance (MAIL_RATE_PER_SECOND). */
  mailRatePerSecond: number;
  /** List emails an hour at most, across every instance; 0 is no cap (MAIL_RATE_PER_HOUR). */
  mailRatePerHour: number;
  /** The mail provider's webhook secret; unset means the webhook is not served. */
  mailWebhookSecret: string | undefined;
  checkoutUrl: string;
  downloadUrl: string;
  guideUrl: string;
  /** Unset outside production means "generate one into DATA_DIR" (see auth-secret.ts). */
  authSecret: string | undefined;
  publicUrl: string;
  redisUrl: string | undefined;
  formRateLimit: number;
  trustProxy: boolean | number | string | undefined;
  logLevel: Env['LOG_LEVEL'];
  /**
   * How long a stopping instance keeps serving, /readyz answering 503 and every answer closing
   * its connection, before it stops accepting (DRAIN_SECONDS).
   */
  drainMs: number;
  stripe: StripeSettings | undefined;
  product: ProductSettings;
  /** PRICE_RULES: what the page may strike through beside the price. */
  priceRules: PriceRules;
  uploads: UploadSettings;
};

/** The largest uploads the admin takes (UPLOAD_IMAGE_MAX_MB, UPLOAD_FILE_MAX_MB), in bytes. */
export type UploadSettings = { imageMaxBytes: number; fileMaxBytes: number };

const MB = 1024 * 1024;

/** A configuration problem, told in one line that names the variable. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

const SECRET_VARIABLES = new Set([
  'AUTH_SECRET',
  'MAIL_API_KEY',
  'STRIPE_WEBHOOK_SECRET',
  'STRIPE_SECRET_KEY',
]);

/** The offending value, as far as it can be shown: never a secret or a URL's password. */
function shownValue(name: string, raw: string): string {
  if (SECRET_VARIABLES.has(name)) return '';
  let shown = raw.replace(/^([a-z][\w+.-]*:\/\/[^:/@\s]*:)[^@\s]*@/i, '$1***@');
  if (shown.length > 60) shown = `${shown.slice(0, 57)}...`;
  return ` (got ${JSON.stringify(shown)})`;
}

function describeIssue(issue: z.core.$ZodIssue, env: NodeJS.ProcessEnv): string {
  const name = String(issue.path[0] ?? 'configuration');
  const raw = env[name];
  return `${name} ${issue.message}${raw === undefined ? '' : shownValue(name, raw)}`;
}

function parseTrustProxy(value: string | undefined): Config['trustProxy'] {
  if (value === undefined) return undefined;
  if (value === 'true') return true;
  if (value === 'false') return false;
  if (/^\d+$/.test(value)) return Number(value);
  return value;
}

function mailSettings(env: Env, problems: string[]): MailSettings {
  if (env.MAIL_API_URL) {
    const missing = (['MAIL_API_KEY', 'MAIL_MODEL', 'MAIL_PROJECT_ID'] as const).filter(
      (name) => !env[name],
    );
    if (missing.length > 0) {
      problems.push(`MAIL_API_URL is set, so ${missing.join(', ')} must be set too`);
      return { transport: 'outbox' };
    }
    return {
      transport: 'api',
      url: env.MAIL_API_URL,
      key: env.MAIL_API_KEY!,
      model: env.MAIL_MODEL!,
      projectId: env.MAIL_PROJECT_ID!,
    };
  }
  if (env.SMTP_URL) return { transport: 'smtp', url: env.SMTP_URL };
  return { transport: 'outbox' };
}

/** Parses and checks the environment; throws a ConfigError naming every bad variable. */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => describeIssue(issue, source));
    throw new ConfigError(`Invalid configuration: ${lines.join('; ')}.`);
  }
  const env = parsed.data;
  const problems: string[] = [];
  if (env.NODE_ENV === 'production' && !env.AUTH_SECRET) {
    problems.push('AUTH_SECRET must be set in production (a random string of 32+ characters)');
  }
  const mail = mailSettings(env, problems);
  if (!env.STRIPE_WEBHOOK_SECRET && (env.STRIPE_SECRET_KEY || env.STRIPE_API_URL)) {
    problems.push(
      'STRIPE_SECRET_KEY and STRIPE_API_URL take effect only with STRIPE_WEBHOOK_SECRET, which is not set',
    );
  }
  if (problems.length > 0) throw new ConfigError(`Invalid configuration: ${problems.join('; ')}.`);

  return {
    env: env.NODE_ENV,
    port: env.PORT,
    host: env.HOST,
    dataDir: path.resolve(env.DATA_DIR),
    databaseUrl: env.DATABASE_URL,
    ownerEmail: env.OWNER_EMAIL.toLowerCase(),
    adminEmails: env.ADMIN_EMAILS ?? [env.OWNER_EMAIL.toLowerCase()],
    mailFrom: env.MAIL_FROM,
    mail,
    mailTimeoutMs: env.MAIL_TIMEOUT_MS,
    mailRetryDelaysMs: env.MAIL_RETRY_DELAYS.map((seconds) => Math.round(seconds * 1000)),
    mailRatePerSecond: env.MAIL_RATE_PER_SECOND,
    mailRatePerHour: env.MAIL_RATE_PER_HOUR,
    mailWebhookSecret: env.MAIL_WEBHOOK_SECRET,
    checkoutUrl: env.CHECKOUT_URL,
    downloadUrl: env.DOWNLOAD_URL,
    guideUrl: env.GUIDE_URL,
    authSecret: env.AUTH_SECRET,
    publicUrl: (env.PUBLIC_URL ?? `http://${env.HOST}:${env.PORT}`).replace(/\/+$/, ''),
    redisUrl: env.REDIS_URL,
    formRateLimit: env.FORM_RATE_LIMIT,
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    logLevel: env.LOG_LEVEL,
    // Behind a balancer (production) it must outlast the health checks that take the instance
    // out; on a developer's machine or in tests nothing routes around it, so Ctrl-C is at once.
    drainMs: Math.round((env.DRAIN_SECONDS ?? (env.NODE_ENV === 'production' ? 5 : 0)) * 1000),
    stripe: env.STRIPE_WEBHOOK_SECRET
      ? {
          webhookSecret: env.STRIPE_WEBHOOK_SECRET,
          secretKey: env.STRIPE_SECRET_KEY,
          apiUrl: env.STRIPE_API_URL,
          automaticTax: env.STRIPE_AUTOMATIC_TAX === '1',
          taxBehavior: env.STRIPE_TAX_BEHAVIOR,
        }
      : undefined,
    product: {
      file: env.BUNDLE_FILE === undefined ? undefined : path.resolve(env.BUNDLE_FILE),
      priceCents: env.PRODUCT_PRICE_CENTS,
      currency: env.PRODUCT_CURRENCY,
      linkHours: env.DOWNLOAD_LINK_HOURS,
      downloadLimit: env.DOWNLOAD_LIMIT,
    },
    priceRules: env.PRICE_RULES,
    uploads: {
      imageMaxBytes: env.UPLOAD_IMAGE_MAX_MB * MB,
      fileMaxBytes: env.UPLOAD_FILE_MAX_MB * MB,
    },
  };
}
