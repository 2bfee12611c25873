import { readdir, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { startMailApiServer, type MailApiServer } from '../../../tests/support/mail-api-server';
import { parseMail } from '../../../tests/support/mime';
import { startSmtpSink, type SmtpSink } from '../../../tests/support/smtp-sink';
import { testConfig } from '../../../tests/support/test-config';
import { createMailer, type Mailer } from './mailer';
import type { MailMessage } from './mail-message';

type LogLine = { level: number; msg: string; [key: string]: unknown };

function capturingLogger(level: string) {
  const lines: LogLine[] = [];
  const { log } = Fastify({
    logger: {
      level,
      stream: { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) },
    },
  });
  return { logger: log, lines };
}

const message: MailMessage = {
  to: ['owner@example.com'],
  subject: 'New order request',
  html: '<p>Name: Ada &lt;b&gt;</p>',
  text: 'Name: Ada <b>',
  replyTo: 'ada@example.com',
};

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function mailerWith(env: NodeJS.ProcessEnv, level = 'info') {
  const config = await testConfig({ MAIL_TIMEOUT_MS: '400', ...env });
  const { logger, lines } = capturingLogger(level);
  const printed: string[] = [];
  const mailer: Mailer = createMailer(config, logger, { print: (text) => printed.push(text) });
  cleanups.push(() => mailer.close());
  return { mailer, config, lines, printed };
}

describe('local outbox (the default)', () => {
  it('saves each message as an .eml file under DATA_DIR/outbox and prints its text', async () => {
    const { mailer, config, lines, printed } = await mailerWith({});
    expect(config.mail.transport).toBe('outbox');

    await expect(mailer.send(message)).resolves.toEqual({ status: 'sent' });

    const outbox = path.join(config.dataDir, 'outbox');
    const files = await readdir(outbox);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/\.eml$/);
    const saved = parseMail(await readFile(path.join(outbox, files[0]!), 'utf8'));
    expect(saved.subject).toBe('New order request');
    expect(saved.headers.to).toBe('owner@example.com');
    expect(saved.headers['reply-to']).toBe('ada@example.com');
    expect(saved.html).toBe(message.html);
    expect(saved.text).toBe(message.text);

    expect(lines.find((line) => line.msg === 'Mail saved to the outbox')).toMatchObject({
      mail: { to: ['owner@example.com'], subject: 'New order request' },
    });
    expect(printed).toHaveLength(1);
    expect(printed[0]).toContain('Mail to owner@example.com');
    expect(printed[0]).toContain('Subject: New order request');
    expect(printed[0]).toContain(`Saved as ${path.join(outbox, files[0]!)}`);
    expect(printed[0]).toContain('  Name: Ada <b>');
  });

  it('prints visitor text without terminal control characters', async () => {
    const { mailer, printed } = await mailerWith({});

    await mailer.send({ ...message, text: 'Name: \u001b[2J\u001b]0;owned\u0007Ada\r\nEnd' });

    expect(printed[0]).toContain('  Name: \ufffd[2J\ufffd]0;owned\ufffdAda\ufffd\n  End');
    // eslint-disable-next-line no-control-regex
    expect(printed[0]).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
  });

  it('prints nothing when logging is quieter than info, and still saves the file', async () => {
    const { mailer, config, printed } = await mailerWith({}, 'warn');

    await expect(mailer.send(message)).resolves.toEqual({ status: 'sent' });

    expect(printed).toEqual([]);
    expect(await readdir(path.join(config.dataDir, 'outbox'))).toHaveLength(1);
  });
  it('makes the outbox folder again if it was removed while running', async () => {
    const { mailer, config } = await mailerWith({});
    const outbox = path.join(config.dataDir, 'outbox');
    await expect(mailer.send(message)).resolves.toEqual({ status: 'sent' });
    await rm(outbox, { recursive: true });

    await expect(mailer.send(message)).resolves.toEqual({ status: 'sent' });

    expect(await readdir(outbox)).toHaveLength(1);
  });
});

describe('SMTP', () => {
  async function withSink() {
    const sink: SmtpSink = await startSmtpSink();
    cleanups.push(() => sink.close());
    return sink;
  }

  it('delivers to the recipient with the sender, Reply-To, subject and both bodies', async () => {
    const sink = await withSink();
    const { mailer } = await mailerWith({
      SMTP_URL: sink.url,
      MAIL_FROM: 'Site <site@example.com>',
    });

    await expect(mailer.send(message)).resolves.toEqual({ status: 'sent' });

    const received = await sink.waitFor(() => true);
    expect(received.envelopeTo).toEqual(['owner@example.com']);
    expect(received.headers.from).toBe('Site <site@example.com>');
    expect(received.headers['reply-to']).toBe('ada@example.com');
    expect(received.subject).toBe('New order request');
    expect(received.html).toBe(message.html);
    expect(received.text).toBe(message.text);
  });

  it('never lets CR/LF from a subject or Reply-To become a header of its own', async () => {
    const sink = await withSink();
    const { mailer } = await mailerWith({ SMTP_URL: sink.url });

    const result = await mailer.send({
      ...message,
      subject: 'Hello\r\nBcc: victim@example.com\r\nX-Injected: yes',
      replyTo: 'ada@example.com\r\nBcc: victim@example.com',
    });

    expect(result).toEqual({ status: 'sent' });
    const received = await sink.waitFor(() => true);
    expect(received.envelopeTo).toEqual(['owner@example.com']);
    expect(received.headers.bcc).toBeUndefined();
    expect(received.headers['x-injected']).toBeUndefined();
    expect(received.headers['reply-to']).toBeUndefined();
    expect(received.subject).toBe('Hello Bcc: victim@example.com X-Injected: yes');
  });

  it('reports a refused message as failed with the server reply', async () => {
    const sink = await withSink();
    sink.rejectAll(true);
    const { mailer, lines } = await mailerWith({ SMTP_URL: sink.url });

    const result = await mailer.send(message);

    expect(result.status).toBe('failed');
    expect(result.status === 'failed' && result.error).toMatch(/550/);
    expect(lines.some((line) => line.msg.startsWith('Mail was not sent'))).toBe(true);
  });

  it('reports an unreachable server as failed', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const { mailer } = await mailerWith({ SMTP_URL: `smtp://127.0.0.1:${port}` });

    const result = await mailer.send(message);

    expect(result.status).toBe('failed');
    expect(result.status === 'failed' && result.error).toMatch(/ECONNREFUSED/);
  });

  it('waits past MAIL_TIMEOUT_MS for the reply to a message the server took whole', async () => {
    const sink = await withSink();
    // The server has the whole message and answers its end 1 s later, past the 400 ms timeout:
    // giving up then would record as unsent a message that was delivered.
    sink.delayEach(1_000);
    const { mailer } = await mailerWith({ SMTP_URL: sink.url });
    let handedOver = 0;

    const result = await mailer.send(message, () => (handedOver += 1));

    expect(result).toEqual({ status: 'sent' });
    expect(handedOver).toBe(1);
    expect(sink.messages).toHaveLength(1);
  });

  it('gives up at MAIL_TIMEOUT_MS on a server that stops answering before it has the message', async () => {
    const sink = await withSink();
    sink.stall('mail from');
    const { mailer } = await mailerWith({ SMTP_URL: sink.url });
    let handedOver = 0;

    const started = performance.now();
    const result = await mailer.send(message, () => (handedOver += 1));

    expect(result).toEqual({ status: 'failed', error: 'no answer within 400 ms' });
    expect(performance.now() - started).toBeLessThan(1_500);
    expect(handedOver).toBe(0);
    expect(sink.stalled()).toBe(1);
  });

  it('gives up on a server that never answers within MAIL_TIMEOUT_MS', async () => {
    const silent: Server = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    cleanups.push(async () => {
      silent.close();
    });
    const { port } = silent.address() as AddressInfo;
    const { mailer } = await mailerWith({ SMTP_URL: `smtp://127.0.0.1:${port}` });

    const started = performance.now();
    const result = await mailer.send(message);

    // Whichever fires first, nodemailer's greeting timeout or ours, both are MAIL_TIMEOUT_MS.
    expect(result.status).toBe('failed');
    expect(performance.now() - started).toBeLessThan(3000);
  });
});

describe('HTTP run API', () => {
  async function withApi() {
    const api: MailApiServer = await startMailApiServer();
    cleanups.push(() => api.close());
    const { mailer } = await mailerWith({
      MAIL_API_URL: `${api.url}/`,
      MAIL_API_KEY: 'test-key',
      MAIL_MODEL: 'send-email',
      MAIL_PROJECT_ID: 'project-7',
    });
    return { api, mailer };
  }

  it('posts the run request with a bearer key and counts send_email_status success as sent', async () => {
    const { api, mailer } = await withApi();

    await expect(mailer.send(message)).resolves.toEqual({ status: 'sent' });

    expect(api.requests).toEqual([
      {
        method: 'POST',
        path: '/v1/run',
        authorization: 'Bearer test-key',
        contentType: 'application/json',
        body: {
          model: 'send-email',
          inputs: {
            receivers: 'owner@example.com',
            title: 'New order request',
            body_html: message.html,
            project_id: 'project-7',
          },
        },
      },
    ]);
  });

  it.each([
    [
      'an error status in the reply',
      { status: 200, json: { send_email_status: 'error', error: 'Quota exceeded' } },
      'Mail API answered 200: Quota exceeded',
    ],
    [
      'a reply without send_email_status',
      { status: 200, json: { ok: true } },
      'Mail API answered 200 with send_email_status null',
    ],
    [
      'an HTTP error',
      { status: 401, json: { error: 'Invalid API key' } },
      'Mail API answered 401: Invalid API key',
    ],
    [
      'a reply that is not JSON',
      { status: 502, text: '<html>Bad gateway</html>' },
      'Mail API answered 502 with send_email_status null',
    ],
  ])('reports %s as failed', async (_case, reply, error) => {
    const { api, mailer } = await withApi();
    api.reply(reply);

    await expect(mailer.send(message)).resolves.toEqual({ status: 'failed', error });
  });

  it('gives up on a service that never answers within MAIL_TIMEOUT_MS', async () => {
    const { api, mailer } = await withApi();
    api.reply('hang');

    await expect(mailer.send(message)).resolves.toEqual({
      status: 'failed',
      error: 'no answer within 400 ms',
    });
  });
});

it('refuses an invalid recipient as a failed send instead of throwing', async () => {
  const { mailer } = await mailerWith({});

  const result = await mailer.send({ ...message, to: ['owner@example.com\r\nBcc: x@example.com'] });

  expect(result.status).toBe('failed');
});
