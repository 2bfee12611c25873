import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/**
 * `json`: pino's JSON lines, for a log collector (production, or output going to a file or a
 * pipe). `readable`: one line per request and short lines for the rest, for a person at a
 * terminal (`npm start`, `npm run dev`).
 */
export type LogFormat = 'json' | 'readable';

/** JSON under NODE_ENV=production, and whenever stdout is not a terminal; readable otherwise. */
export function logFormatFor(env: string, stdoutIsTerminal: boolean): LogFormat {
  return env !== 'production' && stdoutIsTerminal ? 'readable' : 'json';
}

const LEVELS: Record<number, string> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO',
  40: 'WARN',
  50: 'ERROR',
  60: 'FATAL',
};

/** Fields every pino line carries, or that the readable line already shows. */
const SHOWN = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'reqId', 'err']);

type LogEntry = {
  level?: number;
  time?: number;
  msg?: string;
  req?: { method?: string; url?: string };
  res?: { statusCode?: number };
  responseTime?: number;
  err?: { message?: string; stack?: string };
  [key: string]: unknown;
};

function clock(time: number | undefined): string {
  const date = new Date(time ?? Date.now());
  return [date.getHours(), date.getMinutes(), date.getSeconds()]
    .map((part) => String(part).padStart(2, '0'))
    .join(':');
}

/** One pino JSON line as a person reads it; a line that is not JSON is passed on as it is. */
export function formatLogLine(line: string): string {
  let entry: LogEntry;
  try {
    entry = JSON.parse(line) as LogEntry;
  } catch {
    return line.trimEnd();
  }
  const time = clock(entry.time);
  if ((entry.msg === 'request completed' || entry.msg === 'request errored') && entry.req?.method) {
    const ms = typeof entry.responseTime === 'number' ? entry.responseTime.toFixed(1) : '?';
    const line = `${time} ${entry.req.method} ${entry.req.url ?? ''} ${entry.res?.statusCode ?? '-'} ${ms} ms`;
    return entry.err ? `${line} ${entry.err.message ?? ''}` : line;
  }
  const level = LEVELS[entry.level ?? 30] ?? String(entry.level);
  const extra = Object.fromEntries(Object.entries(entry).filter(([key]) => !SHOWN.has(key)));
  let text = `${time} ${level} ${entry.msg ?? ''}`;
  if (Object.keys(extra).length > 0) text += ` ${JSON.stringify(extra)}`;
  if (entry.err)
    text += `\n  ${(entry.err.stack ?? entry.err.message ?? '').replace(/\n/g, '\n  ')}`;
  return text;
}

/** A pino destination that writes each line readable. */
export function readableLogStream(out: { write(text: string): unknown } = process.stdout) {
  return {
    write(line: string) {
      out.write(`${formatLogLine(line)}\n`);
    },
  };
}

/**
 * Fastify's request lines for the readable format: one line per request, written when the
 * answer has gone (method, URL, status, time), instead of an incoming and a completed line.
 * Its other lines (errors, a route not found) are kept.
 */
export class OneLinePerRequest extends LogController {
  override incomingRequest() {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ) {
    const fields = {
      req: { method: request.method, url: request.url },
      res: { statusCode: reply.statusCode },
      responseTime: reply.elapsedTime,
    };
    if (error) reply.log.error({ ...fields, err: error }, 'request errored');
    else reply.log.info(fields, 'request completed');
  }
}
