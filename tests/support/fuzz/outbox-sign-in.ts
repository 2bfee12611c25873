import type { FastifyInstance } from 'fastify';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseMail } from '../mime';
import { codeInMail, signInWith } from '../sign-in';

/** The 6-digit code of the newest mail to `email` in the app's outbox (DATA_DIR/outbox). */
async function codeFromOutbox(dataDir: string, email: string): Promise<string> {
  const outbox = path.join(dataDir, 'outbox');
  const files = (await readdir(outbox)).filter((file) => file.endsWith('.eml')).sort();
  for (const file of files.reverse()) {
    const mail = parseMail(await readFile(path.join(outbox, file), 'utf8'));
    if (!mail.headers.to?.includes(email)) continue;
    const code = codeInMail(mail.text);
    if (code) return code;
  }
  throw new Error(`No mail with a code to ${email} in ${outbox}`);
}

/**
 * Signs in with the code the app saved to its outbox (the default mail transport, much
 * faster under thousands of mails than an SMTP round trip each); returns the session cookie.
 */
export function signInFromOutbox(app: FastifyInstance, email: string): Promise<string> {
  return signInWith(app, email, () => codeFromOutbox(app.config.dataDir, email));
}
