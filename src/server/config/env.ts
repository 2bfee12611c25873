import * as z from 'zod/mini';
import { guideUrlDefault } from '../../shared/public-config';
import { publicConfigDefaults } from '../../shared/public-config-defaults';
import { PRICE_RULES } from '../../shared/store/price-history';
import { seedSettingsDefaults } from '../../shared/store/seed-content';

/**
 * What a value must look like, said once: the error message is "must be " and this text, and
 * the configuration reference (docs/configuration.md) lists it as the allowed values.
 */
export const acceptedValues = z.registry<{ accepts: string }>();

function accepting<T extends z.ZodMiniType>(text: string, build: (message: string) => T): T {
  const schema = build(`must be ${text}`);
  acceptedValues.add(schema, { accepts: text });
  return schema;
}

/** A setting's documentation: what it means, and its default when the schema cannot say. */
export type SettingDoc = {
  meaning: string;
  /** For a setting without a schema default: what happens when it is unset. */
  unset?: string;
  /** A value to show in .env.example when the setting has no default. */
  example?: string;
};

export const settingDocs = z.registry<SettingDoc>();

declare const documented: unique symbol;
/** A schema entry with its documentation: envSchema takes nothing else (see setting()). */
export type Setting<T extends z.ZodMiniType = z.ZodMiniType> = T & { readonly [documented]: true };

/** One environment variable: what it means (one sentence or two), then its schema. */
function setting<T extends z.ZodMiniType>(
  meaning: string,
  schema: T,
  more: Omit<SettingDoc, 'meaning'> = {},
): Setting<T> {
  settingDocs.add(schema, { meaning, ...more });
  return schema as Setting<T>;
}

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
  accepting('a comma-separated list of email addresses', (error) =>
    z.array(z.email({ error })).check(z.minLength(1)),
  ),
);

/** A number from the environment that must be whole and within [min, max], in one message. */
function wholeNumber(min: number, max: number, text: string) {
  return accepting(text, (error) =>
    z.coerce
      .number({ error })
      .check(z.int({ error }), z.minimum(min, { error }), z.maximum(max, { error })),
  );
}

/** A number from the environment within [min, max] (fractions allowed), in one message. */
function numberWithin(min: number, max: number, text: string, exclusiveMin = false) {
  return accepting(text, (error) =>
    z.coerce
      .number({ error })
      .check(
        exclusiveMin ? z.positive({ error }) : z.minimum(min, { error }),
        z.maximum(max, { error }),
      ),
  );
}

const port = wholeNumber(0, 65535, 'a whole number between 0 and 65535');

const positiveInt = (text = 'a positive whole number') =>
  accepting(text, (error) =>
    z.coerce.number({ error }).check(z.int({ error }), z.positive({ error })),
  );

/** Seconds before each retry of a failed email, e.g. "30,120,600" (fractions allowed). */
const retryDelays = accepting(
  'a comma-separated list of 1 to 20 delays in seconds, each above 0 and at most 604800',
  (error) =>
    z.pipe(
      z.pipe(
        z.string(),
        z.transform((value) => value.split(',').map((entry) => entry.trim())),
      ),
      z
        .array(
          z.pipe(
            z.pipe(z.string().check(z.regex(/^\d+(\.\d+)?$/, { error })), z.transform(Number)),
            z.number().check(z.positive({ error }), z.maximum(604800, { error })),
          ),
          { error },
        )
        .check(z.minLength(1, { error }), z.maxLength(20, { error })),
    ),
);

function urlWithProtocols(protocols: string[], example: string) {
  return accepting(`a URL like ${example}`, (error) =>
    z.string().check(
      z.refine(
        (value) => {
          try {
            return protocols.includes(new URL(value).protocol);
          } catch {
            return false;
          }
        },
        { error },
      ),
    ),
  );
}

const httpUrl = urlWithProtocols(['http:', 'https:'], 'https://example.com/path');

const nonEmpty = () =>
  z.string().check(z.minLength(1)).register(acceptedValues, { accepts: 'any text' });

/** Text that must match `pattern`; `text` says what that is. */
const matching = (pattern: RegExp, text: string) =>
  accepting(text, (error) => z.string().check(z.regex(pattern, { error })));

/** Empty strings in the environment mean "not set" (as with `FOO= npm start`). */
const optional = <T extends z.ZodMiniType>(schema: T) =>
  z.pipe(
    z.transform((value: unknown) => (value === '' ? undefined : value)),
    z.optional(schema),
  );

const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/**
 * Every setting of the server: the only description of the environment (the Config type is
 * inferred from it, and `npm run docs` writes docs/configuration.md and .env.example from it).
 * Each entry is `NAME: setting('what it means', schema)`, in the order the reference lists them.
 */
export const envSchema = z.object({
  NODE_ENV: setting(
    '`production` requires AUTH_SECRET and turns on the drain on stop; `test` is for the test suites.',
    z._default(z.enum(['development', 'production', 'test']), 'development'),
  ),
  PORT: setting(
    'The port the server listens on (0 picks a free port).',
    z._default(optional(port), 3000),
  ),
  HOST: setting(
    'The address the server listens on; behind a balancer on other machines, the private address.',
    z._default(optional(nonEmpty()), '127.0.0.1'),
  ),
  DATA_DIR: setting(
    'The embedded PostgreSQL (DATA_DIR/postgres), the mail outbox and the generated secret live here.',
    z._default(optional(nonEmpty()), './data'),
  ),
  DATABASE_URL: setting(
    'A PostgreSQL server (15 or later) to use instead of the embedded one; needed for several instances.',
    optional(
      urlWithProtocols(['postgres:', 'postgresql:'], 'postgres://user:password@host:5432/database'),
    ),
    {
      unset: 'the embedded PostgreSQL in DATA_DIR/postgres',
      example: 'postgres://user:password@127.0.0.1:5432/soul_reset',
    },
  ),
  OWNER_EMAIL: setting(
    'Receives every form notification and the order emails.',
    z._default(
      optional(accepting('an email address', (error) => z.email({ error }))),
      'owner@example.com',
    ),
  ),
  ADMIN_EMAILS: setting(
    'The accounts allowed into the admin; removing one revokes its access at once.',
    optional(emailList),
    { unset: 'OWNER_EMAIL', example: 'owner@example.com,assistant@example.com' },
  ),
  SMTP_URL: setting(
    'Mail goes out over this SMTP server (a pool of connections).',
    optional(urlWithProtocols(['smtp:', 'smtps:'], 'smtp://user:password@host:587')),
    {
      unset: 'mail is printed in the terminal and saved under DATA_DIR/outbox',
      example: 'smtp://user:password@smtp.example.com:587',
    },
  ),
  MAIL_FROM: setting(
    'The sender of all mail.',
    z._default(
      optional(
        z
          .string()
          .check(z.minLength(3))
          .register(acceptedValues, { accepts: 'an address, with a name if you like' }),
      ),
      'Soul Reset <no-reply@soulreset.local>',
    ),
  ),
  MAIL_TIMEOUT_MS: setting(
    'A send that has not handed over its message within this is abandoned and recorded as not sent; the reply to a whole message is awaited 10 times as long.',
    z._default(
      optional(wholeNumber(100, 10000, 'a whole number of milliseconds from 100 to 10000')),
      10000,
    ),
  ),
  MAIL_RETRY_DELAYS: setting(
    'Seconds before each retry of an email that was not sent; after the last, it is marked failed (and can be resent from the admin).',
    z._default(optional(retryDelays), [30, 120, 600, 3600, 21600, 86400]),
  ),
  MAIL_RATE_PER_SECOND: setting(
    'List emails (broadcasts and the sequence) sent per second at most, by all instances together; order emails, sign-in codes and form notifications are not counted and go first.',
    z._default(optional(wholeNumber(1, 100000, 'a whole number from 1 to 100000')), 14),
  ),
  MAIL_RATE_PER_HOUR: setting(
    'List emails sent per hour at most, by all instances together (0: no hourly cap).',
    z._default(optional(wholeNumber(0, 100000000, 'a whole number from 0 to 100000000')), 0),
  ),
  MAIL_API_URL: setting(
    'An HTTP run API as the mail transport (POST {MAIL_API_URL}/v1/run with a bearer key); takes precedence over SMTP and needs the three settings below.',
    optional(httpUrl),
    { example: 'https://mail-api.example.com' },
  ),
  MAIL_API_KEY: setting("The run API's bearer key.", optional(nonEmpty())),
  MAIL_MODEL: setting('The model the run API is asked to use.', optional(nonEmpty())),
  MAIL_PROJECT_ID: setting("The run API's project id.", optional(nonEmpty())),
  MAIL_WEBHOOK_SECRET: setting(
    "Turns on the mail provider's webhook POST /api/mail/events: its bounce and complaint events, signed with an HMAC-SHA256 of the body under this secret (header x-mail-signature: sha256=HEX), take bounced or complaining addresses off the mailing list (docs/forms-and-mail.md).",
    optional(matching(/^\S{16,}$/, 'a secret of at least 16 characters, no spaces')),
    { unset: 'the webhook is not served (404)', example: 'a-long-random-string' },
  ),
  CHECKOUT_URL: setting(
    "Seeds the Payment Link of the first store version; after that it is edited on the admin's Store page.",
    z._default(optional(httpUrl), seedSettingsDefaults.checkoutUrl),
  ),
  DOWNLOAD_URL: setting(
    "The thank-you page's download while purchases are not verified (no STRIPE_WEBHOOK_SECRET): anyone who opens it gets the file.",
    z._default(optional(nonEmpty()), publicConfigDefaults.downloadUrl),
  ),
  GUIDE_URL: setting(
    "Seeds the free guide's download link of the first store version (an uploaded guide replaces it).",
    z._default(optional(nonEmpty()), guideUrlDefault),
  ),
  AUTH_SECRET: setting(
    'Signs sessions; the same on every instance.',
    optional(
      accepting('at least 32 characters (use a random string)', (error) =>
        z.string().check(z.minLength(32, { error })),
      ),
    ),
    {
      unset: 'generated once into DATA_DIR outside production; required with NODE_ENV=production',
      example: 'a-random-string-of-at-least-32-characters',
    },
  ),
  PUBLIC_URL: setting(
    'The address visitors use: cookies, the origin check of every sign-in and admin write, links in emails; https turns on HSTS.',
    optional(httpUrl),
    { unset: 'http://HOST:PORT', example: 'https://shop.example.com' },
  ),
  REDIS_URL: setting(
    'A Redis shared by every instance, so that form rate limits count across them.',
    optional(urlWithProtocols(['redis:', 'rediss:'], 'redis://127.0.0.1:6379')),
    { unset: 'each instance counts on its own', example: 'redis://127.0.0.1:6379' },
  ),
  FORM_RATE_LIMIT: setting(
    'Form submissions accepted per client address per 10 minutes, all forms together.',
    z._default(optional(positiveInt()), 10),
  ),
  TRUST_PROXY: setting(
    'Behind a load balancer: whose X-Forwarded-For to believe for the client address.',
    optional(
      nonEmpty().register(acceptedValues, {
        accepts: '`true`, a hop count, or proxy addresses (comma-separated)',
      }),
    ),
    { unset: "the connection's own address is the client", example: '127.0.0.1' },
  ),
  STRIPE_WEBHOOK_SECRET: setting(
    "Turns on verified purchases: Stripe's webhook confirms each payment and the buyer gets an emailed download link (docs/selling-with-stripe.md).",
    optional(matching(/^whsec_\S+$/, "the endpoint's signing secret (whsec_…)")),
    { unset: 'the thank-you page links DOWNLOAD_URL, which anyone can open', example: 'whsec_...' },
  ),
  STRIPE_SECRET_KEY: setting(
    'Buy buttons open a Checkout Session at the published price, and the thank-you page can confirm a payment with Stripe when the webhook is late.',
    optional(matching(/^(sk|rk)_\S+$/, 'a secret or restricted key (sk_… or rk_…)')),
    { unset: 'buy buttons open the Payment Link', example: 'rk_live_...' },
  ),
  STRIPE_API_URL: setting(
    "Where Stripe's API is (tests point it at a local server).",
    optional(httpUrl),
    { unset: "Stripe's own", example: 'https://api.stripe.com' },
  ),
  STRIPE_AUTOMATIC_TAX: setting(
    '`1` turns on Stripe Tax (`automatic_tax`) for the Checkout Sessions the site creates; the payment check then compares the amount before tax with the price.',
    z._default(optional(z.enum(['0', '1'], { error: 'must be 0 or 1' })), '0'),
  ),
  STRIPE_TAX_BEHAVIOR: setting(
    'With STRIPE_AUTOMATIC_TAX=1: whether the price includes the tax (`inclusive`, as a consumer price does) or the tax is added to it (`exclusive`).',
    z._default(
      optional(
        z.enum(['inclusive', 'exclusive'], { error: 'must be one of inclusive, exclusive' }),
      ),
      'inclusive',
    ),
  ),
  BUNDLE_FILE: setting(
    'The product file streamed through download links, until one is uploaded on the Store page; never served by a static route.',
    optional(nonEmpty()),
    { unset: 'the bundled sample PDF', example: '/srv/soul-reset/soul-reset-bundle.zip' },
  ),
  PRODUCT_PRICE_CENTS: setting(
    'Seeds the price of the first store version; after that it is edited on the Store page.',
    z._default(optional(positiveInt()), 2700),
  ),
  PRODUCT_CURRENCY: setting(
    'Seeds the currency of the first store version.',
    z._default(
      optional(
        z.pipe(
          matching(/^[A-Za-z]{3}$/, 'a three-letter currency code such as usd'),
          z.transform((value) => value.toLowerCase()),
        ),
      ),
      'usd',
    ),
  ),
  PRICE_RULES: setting(
    'What the page may strike through beside the price (docs/prices-and-promotions.md): `off` shows the former price the owner typed; `eu` shows the lowest price live in the 30 days before the current price took effect, and no reduction without one; `us` shows the former price only if it was live at least 30 of the last 90 days.',
    z._default(
      optional(z.enum(PRICE_RULES, { error: `must be one of ${PRICE_RULES.join(', ')}` })),
      'off',
    ),
  ),
  DOWNLOAD_LINK_HOURS: setting(
    'How long an emailed download link works.',
    z._default(
      optional(numberWithin(0, 8760, 'a number of hours above 0 and at most 8760', true)),
      24,
    ),
  ),
  DOWNLOAD_LIMIT: setting(
    'How many downloads one emailed link allows.',
    z._default(
      optional(
        positiveInt()
          .check(z.maximum(1000, { error: 'must be at most 1000' }))
          .register(acceptedValues, { accepts: 'a positive whole number, at most 1000' }),
      ),
      5,
    ),
  ),
  UPLOAD_IMAGE_MAX_MB: setting(
    'The largest image the admin may upload (413 above it).',
    z._default(optional(wholeNumber(1, 100, 'a whole number of megabytes from 1 to 100')), 10),
  ),
  UPLOAD_FILE_MAX_MB: setting(
    'The largest product or guide file the admin may upload (413 above it).',
    z._default(optional(wholeNumber(1, 10240, 'a whole number of megabytes from 1 to 10240')), 200),
  ),
  DRAIN_SECONDS: setting(
    'On SIGTERM, how long to keep serving with /readyz answering 503 before closing, so a balancer takes the instance out first.',
    optional(numberWithin(0, 300, 'a number of seconds from 0 to 300')),
    { unset: '5 with NODE_ENV=production, else 0', example: '5' },
  ),
  LOG_LEVEL: setting(
    'How much the server logs; `warn` or quieter also stops printing mail in the terminal (the outbox still keeps it).',
    z._default(
      optional(z.enum(logLevels, { error: `must be one of ${logLevels.join(', ')}` })),
      'info',
    ),
  ),
} satisfies Record<string, Setting>);

export type Env = z.infer<typeof envSchema>;
