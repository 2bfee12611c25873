import type { Config } from '../config/load-config';
import { page } from '../mail/email-layout';
import { escapeHtml } from '../mail/escape-html';
import type { MailMessage } from '../mail/mail-message';
import { listConfirmPath, listUnsubscribePath } from '../../shared/list/list-api';
import { guideFilePath } from '../../shared/store/files-api';
import type { StoreContent } from '../../shared/store/store-content';

type Recipient = { email: string; name: string };

const button =
  'display:inline-block;padding:12px 24px;border-radius:999px;background:#4d6b57;color:#ffffff;text-decoration:none;font-weight:bold';

function paragraphs(text: string): string {
  return text
    .split(/\r?\n\s*\r?\n/)
    .map((part) => `<p>${escapeHtml(part.trim()).replace(/\r?\n/g, '<br>')}</p>`)
    .join('');
}

function greeting(name: string): string {
  return name.trim() ? `Hi ${name.trim()},` : 'Hi,';
}

function absolute(config: Pick<Config, 'publicUrl'>, url: string): string {
  return url.startsWith('/') ? `${config.publicUrl}${url}` : url;
}

/** The address part of MAIL_FROM ("Shop <a@b.c>" → a@b.c), for the mailto unsubscribe. */
function mailboxOf(from: string): string {
  return /<([^<>]+)>\s*$/.exec(from)?.[1] ?? from.trim();
}

/** The confirmation email: one button that leads to the confirm page (which needs a click). */
export function confirmationEmail(
  config: Pick<Config, 'publicUrl'>,
  content: StoreContent,
  to: Recipient,
  token: string,
): MailMessage {
  const link = `${config.publicUrl}${listConfirmPath(token)}`;
  const { list, product } = content;
  return {
    to: [to.email],
    subject: list.confirmSubject,
    html: page(
      `<p>${escapeHtml(greeting(to.name))}</p>${paragraphs(list.confirmText)}` +
        `<p><a href="${escapeHtml(link)}" style="${button}">Confirm my subscription</a></p>` +
        `<p style="font-size:13px;color:#5b6b60">Or open this link: ${escapeHtml(link)}</p>` +
        `<p style="font-size:13px;color:#5b6b60">${escapeHtml(product.name)}</p>`,
    ),
    text: [
      greeting(to.name),
      '',
      list.confirmText,
      '',
      `Confirm my subscription: ${link}`,
      '',
      product.name,
    ].join('\n'),
  };
}

/**
 * Makes an email a list email (RFC 2369 and RFC 8058): the one-click unsubscribe headers, and a
 * visible unsubscribe link at the end of both bodies.
 */
export function asListEmail(
  config: Pick<Config, 'publicUrl' | 'mailFrom'>,
  message: MailMessage,
  unsubscribeToken: string,
): MailMessage {
  const link = `${config.publicUrl}${listUnsubscribePath(unsubscribeToken)}`;
  const mailto = `mailto:${mailboxOf(config.mailFrom)}?subject=unsubscribe`;
  const footer =
    `<hr style="border:none;border-top:1px solid #d9e2d5;margin-top:32px">` +
    `<p style="font-size:13px;color:#5b6b60">You get this email because you subscribed. ` +
    `<a href="${escapeHtml(link)}">Unsubscribe</a></p>`;
  return {
    ...message,
    html: message.html.replace('</body></html>', `${footer}</body></html>`),
    text: `${message.text}\n\n--\nYou get this email because you subscribed. Unsubscribe: ${link}`,
    headers: {
      'List-Unsubscribe': `<${link}>, <${mailto}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  };
}

/** The welcome email, the first list email: what to expect, and the free guide again. */
export function welcomeEmail(
  config: Pick<Config, 'publicUrl' | 'mailFrom' | 'guideUrl'>,
  content: StoreContent,
  to: Recipient,
  unsubscribeToken: string,
): MailMessage {
  const { list, guide, product } = content;
  const guideLink = absolute(config, guide.file ? guideFilePath(guide.file) : config.guideUrl);
  return asListEmail(
    config,
    {
      to: [to.email],
      subject: list.welcomeSubject,
      html: page(
        `<p>${escapeHtml(greeting(to.name))}</p>${paragraphs(list.welcomeText)}` +
          `<p><a href="${escapeHtml(guideLink)}" style="${button}">Download the free guide</a></p>` +
          `<p style="font-size:13px;color:#5b6b60">${escapeHtml(product.name)}</p>`,
      ),
      text: [
        greeting(to.name),
        '',
        list.welcomeText,
        '',
        `Download the free guide: ${guideLink}`,
        '',
        product.name,
      ].join('\n'),
    },
    unsubscribeToken,
  );
}
