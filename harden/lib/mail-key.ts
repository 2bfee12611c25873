import { createHash } from 'node:crypto';

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
