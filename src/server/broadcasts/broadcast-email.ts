import type { Config } from '../config/load-config';
import { richTextToPlain } from '../admin/tables/rich-text-to-plain';
import { page } from '../mail/email-layout';
import { escapeHtml } from '../mail/escape-html';
import type { MailMessage } from '../mail/mail-message';
import { asListEmail } from '../list/list-emails';
import type { StoreContent } from '../../shared/store/store-content';

export type Sender = StoreContent['sender'];

/** What a broadcast or sequence step says, as stored (html already sanitised). */
export type BroadcastMessage = { slug: string; subject: string; preheader: string; html: string };

/** Both the sender's name and postal address are set: list mail may go out. */
export function senderComplete(sender: Sender | undefined): sender is Sender {
  return Boolean(sender?.name.trim() && sender.postalAddress.trim());
}

const CAMPAIGN_PARAMS = { utm_source: 'newsletter', utm_medium: 'email' } as const;

/** A link with the newsletter's campaign parameters (http and https links only). */
export function campaignLink(href: string, slug: string): string {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return href;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return href;
  for (const [name, value] of Object.entries(CAMPAIGN_PARAMS)) url.searchParams.set(name, value);
  url.searchParams.set('utm_campaign', slug);
  return url.toString();
}

const HREF = /(<a\b[^>]*?\bhref=")([^"]*)(")/gi;
const ENTITY = /&(amp|quot|#39|lt|gt);/g;
const DECODED: Record<string, string> = { amp: '&', quot: '"', '#39': "'", lt: '<', gt: '>' };

/** Adds the campaign parameters to every link of sanitised rich text. */
export function withCampaignLinks(html: string, slug: string): string {
  return html.replace(HREF, (_match, start: string, href: string, end: string) => {
    const decoded = href.replace(ENTITY, (_entity, name: string) => DECODED[name]!);
    return `${start}${escapeHtml(campaignLink(decoded, slug))}${end}`;
  });
}

/** The links of rich text, for the text part: "label (url)". */
function textWithLinks(html: string, slug: string): string {
  const linked = html.replace(
    /<a\b[^>]*?\bhref="([^"]*)"[^>]*>([\s\S]*?)<\/a>/gi,
    (_match, href: string, label: string) => {
      const decoded = href.replace(ENTITY, (_entity, name: string) => DECODED[name]!);
      return `${label} (${escapeHtml(campaignLink(decoded, slug))})`;
    },
  );
  return richTextToPlain(linked);
}

/** The parts of a message every recipient shares, rendered once per message object. */
const rendered = new WeakMap<BroadcastMessage, { html: string; text: string }>();

function renderedBody(message: BroadcastMessage) {
  let body = rendered.get(message);
  if (!body) {
    body = {
      html: withCampaignLinks(message.html, message.slug),
      text: textWithLinks(message.html, message.slug),
    };
    rendered.set(message, body);
  }
  return body;
}

function greeting(name: string): string {
  return name.trim() ? `Hi ${name.trim()},` : 'Hi,';
}

/**
 * One subscriber's copy of a broadcast or sequence step: a greeting by name, the preheader as
 * the inbox's preview text, the body with campaign links, the sender's name and postal
 * address, a text part, and the list's unsubscribe link and headers.
 */
export function broadcastEmail(
  config: Pick<Config, 'publicUrl' | 'mailFrom'>,
  message: BroadcastMessage,
  sender: Sender,
  to: { email: string; name: string },
  unsubscribeToken: string,
): MailMessage {
  const preview = message.preheader.trim()
    ? `<div style="display:none;max-height:0;overflow:hidden">${escapeHtml(message.preheader.trim())}</div>`
    : '';
  const body = renderedBody(message);
  const footer =
    `<p style="font-size:13px;color:#5b6b60">${escapeHtml(sender.name.trim())}<br>` +
    `${escapeHtml(sender.postalAddress.trim()).replace(/\r?\n/g, '<br>')}</p>`;
  return asListEmail(
    config,
    {
      to: [to.email],
      subject: message.subject,
      html: page(`${preview}<p>${escapeHtml(greeting(to.name))}</p>` + `${body.html}${footer}`),
      text: [
        greeting(to.name),
        '',
        body.text,
        '',
        '--',
        sender.name.trim(),
        sender.postalAddress.trim(),
      ].join('\n'),
    },
    unsubscribeToken,
  );
}
