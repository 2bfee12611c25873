import { authApi } from '../../src/shared/auth';
import { codeInMail } from '../../tests/support/sign-in';
import type { SmtpSink } from '../../tests/support/smtp-sink';

/** POSTs JSON as the site's own pages do (same Origin); throws on any answer but 2xx. */
export async function postJson(url: string, route: string, body: unknown, headers = {}) {
  const response = await fetch(`${url}${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: url, ...headers },
    body: JSON.stringify(body),
  });
  if (!response.ok)
    throw new Error(`POST ${route} answered ${response.status}: ${await response.text()}`);
  return response;
}

/** Signs in to a running server with the code mailed to the sink; returns the session cookie. */
export async function signInOverHttp(url: string, sink: SmtpSink, email: string): Promise<string> {
  const before = sink.messages.length;
  await postJson(url, authApi.sendCode, { email, type: 'sign-in' });
  const mail = await sink.waitFor(
    (m) => sink.messages.indexOf(m) >= before && m.envelopeTo.includes(email),
  );
  const otp = codeInMail(mail.text);
  if (!otp) throw new Error(`No code in the sign-in mail:\n${mail.text}`);
  const response = await postJson(url, authApi.signIn, { email, otp });
  const cookie = response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0]!)
    .find((pair) => pair.includes('session_token'));
  if (!cookie) throw new Error('Sign-in set no session cookie.');
  return cookie;
}
