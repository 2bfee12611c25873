import type { FastifyBaseLogger } from 'fastify';
import { LOG_LEVELS, type FromMailThread, type LogLevelName } from './mail-thread-protocol';

/**
 * A logger for the mail thread with the app logger's shape: each line at or above the app's
 * level is posted to the request thread, which writes it through the app's own logger (same
 * format, same stream). Lines below the level are dropped here, before any copying.
 */
export function threadLogger(
  post: (message: FromMailThread) => void,
  level: number,
  bindings: object = {},
): FastifyBaseLogger {
  const write =
    (name: LogLevelName) =>
    (first?: unknown, second?: unknown): void => {
      if (LOG_LEVELS[name] < level) return;
      const [obj, msg] =
        typeof first === 'string'
          ? [{}, first]
          : [(first ?? {}) as object, typeof second === 'string' ? second : undefined];
      const message: FromMailThread = { type: 'log', level: name, bindings, obj, msg };
      try {
        post(message);
      } catch {
        // Something in the object cannot be copied to the other thread (a function, a socket):
        // its JSON form still tells what happened.
        post({ ...message, obj: JSON.parse(JSON.stringify(obj, errorsAsObjects)) as object });
      }
    };
  const logger = {
    level: Object.entries(LOG_LEVELS).find(([, n]) => n === level)?.[0] ?? 'silent',
    fatal: write('fatal'),
    error: write('error'),
    warn: write('warn'),
    info: write('info'),
    debug: write('debug'),
    trace: write('trace'),
    silent: () => {},
    child: (more: object) => threadLogger(post, level, { ...bindings, ...more }),
    isLevelEnabled: (name: string) => (LOG_LEVELS[name as LogLevelName] ?? Infinity) >= level,
  };
  return logger as unknown as FastifyBaseLogger;
}

function errorsAsObjects(_key: string, value: unknown) {
  return value instanceof Error
    ? { type: value.name, message: value.message, stack: value.stack }
    : value;
}

/** Writes a line posted by the mail thread through the app's logger. */
export function writeThreadLog(
  log: FastifyBaseLogger,
  line: Extract<FromMailThread, { type: 'log' }>,
): void {
  const target = Object.keys(line.bindings).length > 0 ? log.child(line.bindings) : log;
  if (line.msg === undefined) target[line.level](line.obj);
  else target[line.level](line.obj, line.msg);
}
