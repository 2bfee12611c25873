import type { Config } from '../config/load-config';
import { page, PAGE_END, PAGE_START } from '../mail/email-layout';
import { escapeHtml } from '../mail/escape-html';
import type { MailMessage } from '../mail/mail-message';
import { listConfirmPath, listUnsubscribePath } from '../../shared/list/list-api';
import { guideFilePath } from '../../shared/store/files-api';
import type { StoreContent } from '../../shared/store/store-content';

export type Recipient = { email: string; name: string };

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

/** The parts of a templated email that differ per recipient. */
export type TemplateSlot = 'greeting' | 'token';
/** A body of a templated email: its fixed text (HTML already escaped) and its slots, in order. */
export type TemplatePart = string | { slot: TemplateSlot };

/**
 * An email with what differs per recipient left open: filled here by fillTemplate, or by the
 * database when an import queues many at once (list-import.ts), always to the same message.
 */
export type EmailTemplate = {
  subject: string;
  html: TemplatePart[];
  text: TemplatePart[];
};

const GREETING = { slot: 'greeting' } as const;
const TOKEN = { slot: 'token' } as const;

/**
 * A recipient's values for the slots, as each body takes them: escaped for the HTML. A token is
 * base64url (newToken), which escaping leaves as it is.
 */
export function slotValues(
  to: Recipient,
  token: string,
): { html: Record<TemplateSlot, string>; text: Record<TemplateSlot, string> } {
  const hello = greeting(to.name);
  return {
    html: { greeting: escapeHtml(hello), token: escapeHtml(token) },
    text: { greeting: hello, token },
  };
}

function filled(parts: TemplatePart[], values: Record<TemplateSlot, string>): string {
  return parts.map((part) => (typeof part === 'string' ? part : values[part.slot])).join('');
}

/** The template's message to one recipient. */
export function fillTemplate(template: EmailTemplate, to: Recipient, token: string): MailMessage {
  const values = slotValues(to, token);
  return {
    to: [to.email],
    subject: template.subject,
    html: filled(template.html, values.html),
    text: filled(template.text, values.text),
  };
}

/** The confirmation email, its greeting and its link's token left open. */
export function confirmationTemplate(
  config: Pick<Config, 'publicUrl'>,
  content: StoreContent,
): EmailTemplate {
  // The link is this, then the token.
  const link = `${config.publicUrl}${listConfirmPath('')}`;
  const { list, product } = content;
  const small = 'font-size:13px;color:#5b6b60';
  return {
    subject: list.confirmSubject,
    html: [
      `${PAGE_START}<p>`,
      GREETING,
      `</p>${paragraphs(list.confirmText)}<p><a href="${escapeHtml(link)}`,
      TOKEN,
      `" style="${button}">Confirm my subscription</a></p>` +
        `<p style="${small}">Or open this link: ${escapeHtml(link)}`,
      TOKEN,
      `</p><p style="${small}">${escapeHtml(product.name)}</p>${PAGE_END}`,
    ],
    text: [
      GREETING,
      `\n\n${list.confirmText}\n\nConfirm my subscription: ${link}`,
      TOKEN,
      `\n\n${product.name}`,
    ],
  };
}

/** The confirmation email: one button that leads to the confirm page (which needs a click). */
export function confirmationEmail(
  config: Pick<Config, 'publicUrl'>,
  content: StoreContent,
  to: Recipient,
  token: string,
): MailMessage {
  return fillTemplate(confirmationTemplate(config, content), to, token);
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
