import { createHash } from 'node:crypto';
import type pg from 'pg';
import type { MailSinkProcess } from './mail-sink-process';

/**
 * What identifies one email across the queue and the mail server: the recipient's address,
 * the subject and the plain text (line ends and trailing spaces evened out). Every email the
 * harness provokes names a visitor or buyer address of its own in its text, so two deliveries
 * never share a key, and one delivery sent twice arrives twice under the same key.
 */
export function mailKey(recipient: string, subject: string, text: string): string {
  const address = (/<([^>]+)>/.exec(recipient)?.[1] ?? recipient).trim().toLowerCase();
  const body = text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')
    .trim();
  return `${address}\n${subject.trim()}\n${createHash('sha1').update(body).digest('hex')}`;
}

/** The queued deliveries, each with its key and status, and what the mail server took. */
export async function queuedAndReceived(pool: pg.Pool, sink: MailSinkProcess) {
  const { rows } = await pool.query<{
    recipient: string;
    subject: string;
    text: string;
    status: string;
  }>('select recipient, subject, text, status from mail_deliveries');
  const queued = rows.map((row) => ({
    key: mailKey(row.recipient, row.subject, row.text),
    sent: row.status === 'sent',
  }));
  return { queued, received: await sink.received() };
}
