import { escapeHtml } from '../mail/escape-html';
import type { MailMessage } from '../mail/mail-message';
import { authLimits } from './auth-limits';

const minutes = authLimits.codeExpiresIn / 60;

/** The sign-in code email. The code is in the text body so the local outbox prints it. */
export function codeEmail(to: string, code: string): MailMessage {
  const text = [
    `Your Soul Reset sign-in code is ${code}`,
    '',
    `It works once and expires in ${minutes} minutes.`,
    'If you did not ask to sign in, you can ignore this email.',
  ].join('\n');
  const html = `<!doctype html>
<html><body style="margin:0;padding:24px;background:#faf6ef;font-family:system-ui,sans-serif;color:#1f2a24">
<p style="margin:0 0 16px">Your Soul Reset sign-in code is</p>
<p style="margin:0 0 16px;font-size:28px;font-weight:600;letter-spacing:6px;color:#27452f">${escapeHtml(code)}</p>
<p style="margin:0 0 8px">It works once and expires in ${minutes} minutes.</p>
<p style="margin:0;color:#4a5650">If you did not ask to sign in, you can ignore this email.</p>
</body></html>`;
  return { to: [to], subject: 'Your Soul Reset sign-in code', text, html };
}
