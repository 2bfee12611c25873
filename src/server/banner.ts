import type { Config } from './config/load-config';
import { paths } from '../shared/paths';

const mailDescriptions: Record<Config['mail']['transport'], (config: Config) => string> = {
  outbox: (config) => `local outbox: printed here and saved under ${config.dataDir}/outbox`,
  smtp: (config) =>
    `SMTP via ${config.mail.transport === 'smtp' ? new URL(config.mail.url).host : ''}`,
  api: (config) => `HTTP run API at ${config.mail.transport === 'api' ? config.mail.url : ''}`,
};

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
    `  Mail:      ${mailDescriptions[config.mail.transport](config)}`,
    '',
    '  Press Ctrl+C to stop.',
    '',
  ].join('\n');
}
