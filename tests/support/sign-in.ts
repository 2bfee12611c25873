import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { authApi } from '../../src/shared/auth';
import type { SmtpSink } from './smtp-sink';

let nextIp = 1;

/** A client address no other test uses, so per-IP limits never mix tests up. */
export function freshIp(): string {
  const n = nextIp++;
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
}

/** The session cookie (`name=value`) a sign-in answer sets, or undefined. */
export function sessionCookie(response: LightMyRequestResponse): string | undefined {
  const cookie = response.cookies.find((c) => c.name.endsWith('soul-reset.session_token'));
  return cookie ? `${cookie.name}=${cookie.value}` : undefined;
}

export function requestCode(app: FastifyInstance, email: string, ip = freshIp()) {
  return app.inject({
    method: 'POST',
    url: authApi.sendCode,
    remoteAddress: ip,
    headers: { origin: app.config.publicUrl },
    payload: { email, type: 'sign-in' },
  });
}

export function submitCode(app: FastifyInstance, email: string, otp: string, ip = freshIp()) {
  return app.inject({
    method: 'POST',
    url: authApi.signIn,
    remoteAddress: ip,
    headers: { origin: app.config.publicUrl },
    payload: { email, otp },
  });
}

/** The 6-digit code in the newest email sent to `email`. */
export async function codeFromMail(sink: SmtpSink, email: string, after = 0): Promise<string> {
  const mail = await sink.waitFor(
    (mail) => sink.messages.indexOf(mail) >= after && mail.envelopeTo.includes(email),
  );
  const code = codeInMail(mail.text);
  if (!code) throw new Error(`No 6-digit code in the mail to ${email}:\n${mail.text}`);
  return code;
}

/** The 6-digit sign-in code in a mail's text, if there is one. */
export function codeInMail(text: string): string | undefined {
  return /\b(\d{6})\b/.exec(text)?.[1];
}

/** Requests a code, reads it from the sink, signs in; returns the session cookie. */
export async function signIn(app: FastifyInstance, sink: SmtpSink, email: string) {
  const before = sink.messages.length;
  return signInWith(app, email, () => codeFromMail(sink, email, before));
}

/** Requests a code, reads it with `readCode` once sent, signs in; returns the session cookie. */
export async function signInWith(
  app: FastifyInstance,
  email: string,
  readCode: () => Promise<string>,
): Promise<string> {
  const sent = await requestCode(app, email);
  if (sent.statusCode !== 200) throw new Error(`Code request failed: ${sent.body}`);
  const code = await readCode();
  const response = await submitCode(app, email, code);
  const cookie = sessionCookie(response);
  if (response.statusCode !== 200 || !cookie) throw new Error(`Sign-in failed: ${response.body}`);
  return cookie;
}
