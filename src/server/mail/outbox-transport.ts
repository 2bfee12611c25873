import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { MailTransport } from './transports';

const VERBOSE_LEVELS = new Set(['trace', 'debug', 'info']);

/**
 * The zero-setup transport: each message is written as an .eml file under DATA_DIR/outbox
 * and its text is printed to the terminal, so sign-in codes and notifications are visible
 * locally.
 */
export function outboxTransport(
  dataDir: string,
  logger: FastifyBaseLogger,
  print: (text: string) => void,
): MailTransport {
  const outbox = path.join(dataDir, 'outbox');
  const composer = nodemailer.createTransport({ streamTransport: true, buffer: true });
  return {
    async send(mail) {
      const info = await composer.sendMail(mail);
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const file = path.join(outbox, `${stamp}-${randomUUID().slice(0, 8)}.eml`);
      const message = info.message as Buffer;
      // The folder is made on the first message (or again if it was removed), not on every one:
      // each file-system call waits for one of libuv's four threads under load.
      await writeFile(file, message).catch(async (error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error;
        await mkdir(outbox, { recursive: true });
        await writeFile(file, message);
      });
      logger.info(
        { mail: { to: mail.to, subject: mail.subject, file } },
        'Mail saved to the outbox',
      );
      // Readable in the terminal (a sign-in code, a notification), unless logging is quieter
      // than info.
      if (VERBOSE_LEVELS.has(logger.level)) print(readable(mail.to, mail.subject, mail.text, file));
    },
    // Files on the local disk: as many at once as the delivery worker ever held before.
    parallel: 20,
    async close() {
      composer.close();
    },
  };
}

/** Control characters from visitor input must not drive the terminal (escape sequences). */
function printable(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '\ufffd');
}

function readable(to: string[], subject: string, text: string, file: string): string {
  const rule = '─'.repeat(72);
  return [
    rule,
    `  Mail to ${to.join(', ')}`,
    `  Subject: ${subject}`,
    `  Saved as ${file}`,
    rule,
    ...printable(text)
      .split('\n')
      .map((line) => `  ${line}`),
    rule,
    '',
  ].join('\n');
}
