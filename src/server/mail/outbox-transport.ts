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
      await mkdir(outbox, { recursive: true });
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const file = path.join(outbox, `${stamp}-${randomUUID().slice(0, 8)}.eml`);
      await writeFile(file, info.message as Buffer);
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
