import { channels, normaliseSourceValue, type Channel, type VisitSource } from './visit-source';

/**
 * The visit's source in a Payment Link's `client_reference_id` (DESIGN.md "Sources and
 * campaigns"), which Stripe takes as a URL parameter of at most 200 letters, digits, dashes
 * and underscores: a prefix and the fields, tab-separated, as base64url: source, medium,
 * campaign, channel, then content and term (a reference without these two still reads).
 */
const PREFIX = 'src1_';
const MAX_LENGTH = 200;

function toBase64Url(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): string {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
  return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
}

/** The reference for a visit's source; long values are cut until it fits Stripe's limit. */
export function sourceReference(
  visit: Omit<VisitSource, 'content' | 'term'> & Partial<Pick<VisitSource, 'content' | 'term'>>,
): string {
  for (let cut = 100; cut > 0; cut -= 5) {
    const [source, medium, campaign, content, term] = [
      visit.source,
      visit.medium,
      visit.campaign,
      visit.content ?? '',
      visit.term ?? '',
    ].map((field) => field.slice(0, cut).trim());
    const fields = [source, medium, campaign, visit.channel];
    if (content || term) fields.push(content!, term!);
    const reference = PREFIX + toBase64Url(fields.join('\t'));
    if (reference.length <= MAX_LENGTH) return reference;
  }
  return PREFIX + toBase64Url(['', '', '', visit.channel].join('\t'));
}

/** The source a reference holds, or undefined for any other client_reference_id. */
export function sourceOfReference(reference: string | null | undefined): VisitSource | undefined {
  if (!reference?.startsWith(PREFIX) || reference.length > MAX_LENGTH) return undefined;
  try {
    const fields = fromBase64Url(reference.slice(PREFIX.length)).split('\t');
    const [source, medium, campaign, channel, content, term] = fields;
    if (fields.length !== 4 && fields.length !== 6) return undefined;
    if (!(channels as readonly string[]).includes(channel ?? '')) return undefined;
    const clean = [source, medium, campaign, content, term].map((field) =>
      normaliseSourceValue(field),
    );
    if (!clean[0]) return undefined;
    return {
      source: clean[0],
      medium: clean[1]!,
      campaign: clean[2]!,
      channel: channel as Channel,
      content: clean[3]!,
      term: clean[4]!,
    };
  } catch {
    return undefined;
  }
}
