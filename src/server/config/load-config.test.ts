import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './load-config';

function configError(env: NodeJS.ProcessEnv): string {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected a configuration error');
}

describe('loadConfig', () => {
  it('gives the documented defaults on an empty environment', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      env: 'development',
      port: 3000,
      host: '127.0.0.1',
      dataDir: path.resolve('./data'),
      databaseUrl: undefined,
      ownerEmail: 'owner@example.com',
      adminEmails: ['owner@example.com'],
      mail: { transport: 'outbox' },
      publicUrl: 'http://127.0.0.1:3000',
      redisUrl: undefined,
      formRateLimit: 10,
      trustProxy: undefined,
      logLevel: 'info',
      drainMs: 0,
    });
    expect(config.checkoutUrl).toMatch(/^https:\/\//);
  });

  it('reads every variable', () => {
    const config = loadConfig({
      NODE_ENV: 'production',
      PORT: '8080',
      HOST: '0.0.0.0',
      DATA_DIR: '/srv/data',
      DATABASE_URL: 'postgres://app:secret@db.internal:5432/site',
      OWNER_EMAIL: 'Owner@Shop.com',
      ADMIN_EMAILS: ' a@shop.com, B@shop.com ,',
      SMTP_URL: 'smtp://mail.internal:2525',
      MAIL_FROM: 'Shop <hello@shop.com>',
      CHECKOUT_URL: 'https://pay.example.com/abc',
      DOWNLOAD_URL: 'https://files.example.com/bundle.zip',
      GUIDE_URL: 'https://files.example.com/guide.pdf',
      AUTH_SECRET: 'x'.repeat(40),
      PUBLIC_URL: 'https://shop.com/',
      REDIS_URL: 'redis://cache:6379',
      FORM_RATE_LIMIT: '25',
      TRUST_PROXY: '2',
      LOG_LEVEL: 'warn',
      DRAIN_SECONDS: '2.5',
    });
    expect(config).toMatchObject({
      env: 'production',
      port: 8080,
      host: '0.0.0.0',
      dataDir: '/srv/data',
      databaseUrl: 'postgres://app:secret@db.internal:5432/site',
      ownerEmail: 'owner@shop.com',
      adminEmails: ['a@shop.com', 'b@shop.com'],
      mail: { transport: 'smtp', url: 'smtp://mail.internal:2525' },
      mailFrom: 'Shop <hello@shop.com>',
      checkoutUrl: 'https://pay.example.com/abc',
      downloadUrl: 'https://files.example.com/bundle.zip',
      guideUrl: 'https://files.example.com/guide.pdf',
      authSecret: 'x'.repeat(40),
      publicUrl: 'https://shop.com',
      redisUrl: 'redis://cache:6379',
      formRateLimit: 25,
      trustProxy: 2,
      logLevel: 'warn',
      drainMs: 2500,
    });
  });

  it('drains 5 s by default in production and not at all otherwise, unless DRAIN_SECONDS says', () => {
    const production = { NODE_ENV: 'production', AUTH_SECRET: 'x'.repeat(40) } as const;
    expect(loadConfig(production).drainMs).toBe(5000);
    expect(loadConfig({ ...production, DRAIN_SECONDS: '0' }).drainMs).toBe(0);
    expect(loadConfig({ NODE_ENV: 'test' }).drainMs).toBe(0);
    expect(loadConfig({ NODE_ENV: 'development', DRAIN_SECONDS: '1' }).drainMs).toBe(1000);
    expect(loadConfig({ DRAIN_SECONDS: '' }).drainMs).toBe(0);
  });

  it('prefers the HTTP run API over SMTP when both are set', () => {
    const config = loadConfig({
      SMTP_URL: 'smtp://mail:25',
      MAIL_API_URL: 'https://mail-api.example.com',
      MAIL_API_KEY: 'k',
      MAIL_MODEL: 'send-email',
      MAIL_PROJECT_ID: 'p1',
    });
    expect(config.mail).toEqual({
      transport: 'api',
      url: 'https://mail-api.example.com',
      key: 'k',
      model: 'send-email',
      projectId: 'p1',
    });
  });

  it('reads MAIL_RETRY_DELAYS as seconds (default 30 s to a day) and refuses bad lists', () => {
    expect(loadConfig({}).mailRetryDelaysMs).toEqual([
      30_000, 120_000, 600_000, 3_600_000, 21_600_000, 86_400_000,
    ]);
    expect(loadConfig({ MAIL_RETRY_DELAYS: ' 0.25, 2 ,60' }).mailRetryDelaysMs).toEqual([
      250, 2_000, 60_000,
    ]);
    for (const bad of ['0', '5,,10', 'soon', '-1', '10,700000', Array(21).fill('1').join(',')]) {
      expect(configError({ MAIL_RETRY_DELAYS: bad }), bad).toMatch(
        /^Invalid configuration: MAIL_RETRY_DELAYS must be a comma-separated list of 1 to 20 delays/,
      );
    }
  });

  it('reads the list mail rate (default 14 a second, no hourly cap) and refuses bad values', () => {
    expect(loadConfig({})).toMatchObject({ mailRatePerSecond: 14, mailRatePerHour: 0 });
    expect(loadConfig({ MAIL_RATE_PER_SECOND: '50', MAIL_RATE_PER_HOUR: '20000' })).toMatchObject({
      mailRatePerSecond: 50,
      mailRatePerHour: 20_000,
    });
    for (const bad of ['0', '1.5', 'fast', '-3']) {
      expect(configError({ MAIL_RATE_PER_SECOND: bad }), bad).toMatch(
        /^Invalid configuration: MAIL_RATE_PER_SECOND must be a whole number from 1 to 100000/,
      );
    }
    expect(configError({ MAIL_RATE_PER_HOUR: 'many' })).toMatch(
      /^Invalid configuration: MAIL_RATE_PER_HOUR must be a whole number from 0 to 100000000/,
    );
  });

  it('treats empty values as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '', TRUST_PROXY: '' })).toMatchObject({
      port: 3000,
      databaseUrl: undefined,
      trustProxy: undefined,
    });
  });

  it('parses TRUST_PROXY as a flag, a hop count or a list of addresses', () => {
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.1,10.0.0.2' }).trustProxy).toBe('10.0.0.1,10.0.0.2');
  });

  it.each([
    [
      { PORT: 'abc' },
      'Invalid configuration: PORT must be a whole number between 0 and 65535 (got "abc").',
    ],
    [
      { PORT: '70000' },
      'Invalid configuration: PORT must be a whole number between 0 and 65535 (got "70000").',
    ],
    [
      { DATABASE_URL: 'nonsense' },
      'Invalid configuration: DATABASE_URL must be a URL like postgres://user:password@host:5432/database (got "nonsense").',
    ],
    [
      { OWNER_EMAIL: 'nobody' },
      'Invalid configuration: OWNER_EMAIL must be an email address (got "nobody").',
    ],
    [
      { ADMIN_EMAILS: 'a@b.com, oops' },
      'Invalid configuration: ADMIN_EMAILS must be a comma-separated list of email addresses (got "a@b.com, oops").',
    ],
    [
      { FORM_RATE_LIMIT: '0' },
      'Invalid configuration: FORM_RATE_LIMIT must be a positive whole number (got "0").',
    ],
    [
      { CHECKOUT_URL: 'javascript:alert(1)' },
      'Invalid configuration: CHECKOUT_URL must be a URL like https://example.com/path (got "javascript:alert(1)").',
    ],
    [
      { DRAIN_SECONDS: '-1' },
      'Invalid configuration: DRAIN_SECONDS must be a number of seconds from 0 to 300 (got "-1").',
    ],
    [
      { DRAIN_SECONDS: 'soon' },
      'Invalid configuration: DRAIN_SECONDS must be a number of seconds from 0 to 300 (got "soon").',
    ],
    [
      { LOG_LEVEL: 'loud' },
      'Invalid configuration: LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "loud").',
    ],
    [
      { NODE_ENV: 'production' },
      'Invalid configuration: AUTH_SECRET must be set in production (a random string of 32+ characters).',
    ],
    [
      { MAIL_API_URL: 'https://mail.example.com', MAIL_API_KEY: 'k' },
      'Invalid configuration: MAIL_API_URL is set, so MAIL_MODEL, MAIL_PROJECT_ID must be set too.',
    ],
  ])('rejects %j with one line naming the variable', (env, message) => {
    const text = configError(env);
    expect(text).toBe(message);
    expect(text).not.toContain('\n');
  });

  it('never echoes a secret or the password in a URL', () => {
    expect(configError({ AUTH_SECRET: 'short-secret' })).toBe(
      'Invalid configuration: AUTH_SECRET must be at least 32 characters (use a random string).',
    );
    const text = configError({
      DATABASE_URL: 'mysql://app:hunter2@db.internal/site',
      SMTP_URL: 'http://mailer:pa55word@mail.internal',
    });
    expect(text).not.toContain('hunter2');
    expect(text).not.toContain('pa55word');
    expect(text).toContain('(got "mysql://app:***@db.internal/site")');
  });

  it('reads the purchase settings: off without the webhook secret, with the product defaults', () => {
    const off = loadConfig({});
    expect(off.stripe).toBeUndefined();
    expect(off.product).toEqual({
      file: undefined,
      priceCents: 2700,
      currency: 'usd',
      linkHours: 24,
      downloadLimit: 5,
    });
    const on = loadConfig({
      STRIPE_WEBHOOK_SECRET: 'whsec_abc',
      STRIPE_SECRET_KEY: 'rk_test_abc',
      STRIPE_API_URL: 'http://127.0.0.1:12111',
      BUNDLE_FILE: 'product/bundle.zip',
      PRODUCT_PRICE_CENTS: '4900',
      PRODUCT_CURRENCY: 'EUR',
      DOWNLOAD_LINK_HOURS: '0.5',
      DOWNLOAD_LIMIT: '2',
    });
    expect(on.stripe).toEqual({
      webhookSecret: 'whsec_abc',
      secretKey: 'rk_test_abc',
      apiUrl: 'http://127.0.0.1:12111',
      automaticTax: false,
      taxBehavior: 'inclusive',
    });
    expect(on.product).toEqual({
      file: path.resolve('product/bundle.zip'),
      priceCents: 4900,
      currency: 'eur',
      linkHours: 0.5,
      downloadLimit: 2,
    });
  });

  it('refuses bad purchase settings without echoing a key', () => {
    const text = configError({
      STRIPE_WEBHOOK_SECRET: 'sk_live_wrong_secret',
      PRODUCT_CURRENCY: 'dollars',
      DOWNLOAD_LIMIT: '0',
    });
    expect(text).toBe(
      'Invalid configuration: STRIPE_WEBHOOK_SECRET must be the endpoint\'s signing secret (whsec_…); PRODUCT_CURRENCY must be a three-letter currency code such as usd (got "dollars"); DOWNLOAD_LIMIT must be a positive whole number (got "0").',
    );
    expect(text).not.toContain('sk_live_wrong_secret');
    expect(configError({ STRIPE_SECRET_KEY: 'sk_test_abc' })).toBe(
      'Invalid configuration: STRIPE_SECRET_KEY and STRIPE_API_URL take effect only with STRIPE_WEBHOOK_SECRET, which is not set.',
    );
  });

  it('names every bad variable at once', () => {
    expect(configError({ PORT: 'abc', SMTP_URL: 'http://x' })).toBe(
      'Invalid configuration: PORT must be a whole number between 0 and 65535 (got "abc"); SMTP_URL must be a URL like smtp://user:password@host:587 (got "http://x").',
    );
  });

  it('reads the upload limits in megabytes and refuses limits that are not whole and in range', () => {
    expect(loadConfig({}).uploads).toEqual({
      imageMaxBytes: 10 * 1024 * 1024,
      fileMaxBytes: 200 * 1024 * 1024,
    });
    expect(loadConfig({ UPLOAD_IMAGE_MAX_MB: '2', UPLOAD_FILE_MAX_MB: '1024' }).uploads).toEqual({
      imageMaxBytes: 2 * 1024 * 1024,
      fileMaxBytes: 1024 * 1024 * 1024,
    });
    expect(configError({ UPLOAD_IMAGE_MAX_MB: '0', UPLOAD_FILE_MAX_MB: '1.5' })).toBe(
      'Invalid configuration: UPLOAD_IMAGE_MAX_MB must be a whole number of megabytes from 1 to 100 (got "0"); UPLOAD_FILE_MAX_MB must be a whole number of megabytes from 1 to 10240 (got "1.5").',
    );
  });
});
