import { TableConfigurationError } from './admin/tables/table-configurations';
import { ConfigError, type Config } from './config/load-config';
import { DataDirLockedError } from './db/data-dir-lock';
import { describePostgresUrl } from './db/database';
import { EmbeddedPostgresError } from './db/embedded-postgres';
import { isDatabaseUnavailable } from './http/errors';
import { errorMessage } from '../shared/error-message';

/** One line for the reasons a start commonly fails; a stack trace only for the unexpected. */
export function describeStartupError(error: unknown, config: Config | undefined): string {
  if (
    error instanceof ConfigError ||
    error instanceof DataDirLockedError ||
    error instanceof EmbeddedPostgresError ||
    error instanceof TableConfigurationError
  ) {
    return `Cannot start: ${error.message}`;
  }
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'EADDRINUSE' && config) {
    return `Cannot start: port ${config.port} on ${config.host} is already in use. Stop the other server or set PORT.`;
  }
  if (config?.databaseUrl && isDatabaseUnavailable(error)) {
    return `Cannot start: the database at ${describePostgresUrl(config.databaseUrl)} cannot be reached (${errorMessage(error)}).`;
  }
  return `Cannot start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`;
}
