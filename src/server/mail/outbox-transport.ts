import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { MailTransport } from './transports';

/**
 * The zero-setup transport: each message is written as an .eml file under DATA_DIR/outbox
 * and its text is printed to the log, so sign-in codes and notifications are visible locally.
 */
export function outboxTransport(dataDir: string, logger: FastifyBaseLogger): MailTransport {
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
        `Mail to ${mail.to.join(', ')}: ${mail.subject}\n${mail.text}`,
      );
    },
    async close() {
      composer.close();
    },
  };
}
