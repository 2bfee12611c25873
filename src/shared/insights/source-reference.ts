import { channels, normaliseSourceValue, type Channel, type VisitSource } from './visit-source';

/**
 * The visit's source in a Payment Link's `client_reference_id` (DESIGN.md "Sources and
 * campaigns"), which Stripe takes as a URL parameter of at most 200 letters, digits, dashes
 * and underscores: a prefix and the fields, tab-separated, as base64url.
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
export function sourceReference(visit: VisitSource): string {
  for (let cut = 100; cut > 0; cut -= 5) {
    const fields = [visit.source, visit.medium, visit.campaign].map((field) =>
      field.slice(0, cut).trim(),
    );
    const reference = PREFIX + toBase64Url([...fields, visit.channel].join('\t'));
    if (reference.length <= MAX_LENGTH) return reference;
  }
  return PREFIX + toBase64Url(['', '', '', visit.channel].join('\t'));
}

/** The source a reference holds, or undefined for any other client_reference_id. */
export function sourceOfReference(reference: string | null | undefined): VisitSource | undefined {
  if (!reference?.startsWith(PREFIX) || reference.length > MAX_LENGTH) return undefined;
  try {
    const [source, medium, campaign, channel, ...rest] = fromBase64Url(
      reference.slice(PREFIX.length),
    ).split('\t');
    if (rest.length || !(channels as readonly string[]).includes(channel ?? '')) return undefined;
    const clean = [source, medium, campaign].map((field) => normaliseSourceValue(field));
    if (!clean[0]) return undefined;
    return {
      source: clean[0],
      medium: clean[1]!,
      campaign: clean[2]!,
      channel: channel as Channel,
    };
  } catch {
    return undefined;
  }
}
