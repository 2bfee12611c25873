import type { Config } from './config/load-config';
import { paths } from '../shared/paths';

function describeMail(config: Config): string {
  const { mail } = config;
  switch (mail.transport) {
    case 'outbox':
      return `local outbox: printed here and saved under ${config.dataDir}/outbox`;
    case 'smtp':
      return `SMTP via ${new URL(mail.url).host}`;
    case 'api':
      return `HTTP run API at ${mail.url}`;
  }
}

function describePurchases(config: Config): string {
  return config.stripe
    ? 'verified with Stripe; the product leaves only through emailed download links'
    : 'not verified (STRIPE_WEBHOOK_SECRET unset): the thank-you page links DOWNLOAD_URL, which anyone can open';
}

/** What a newcomer needs after `npm start`: where the site is and how to get into the admin. */
export function startBanner(options: { url: string; config: Config; databaseLabel: string }) {
  const { url, config, databaseLabel } = options;
  const codes =
    config.mail.transport === 'outbox'
      ? 'the sign-in code is printed in this terminal'
      : 'the sign-in code is emailed';
  return [
    '',
    '  Soul Reset site is running',
    '',
    `  Site:      ${url}/`,
    `  Admin:     ${url}/#${paths.adminLogin}`,
    `             sign in as ${config.adminEmails.join(' or ')}; ${codes}`,
    `  Database:  ${databaseLabel}`,
    `  Mail:      ${describeMail(config)}`,
    `  Purchases: ${describePurchases(config)}`,
    '',
    '  Press Ctrl+C to stop.',
    '',
  ].join('\n');
}
