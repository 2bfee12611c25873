/**
 * The source of a visit (DESIGN.md "Sources and campaigns"), read once from the address the
 * visitor arrived at and the page that sent them. Plain functions without a schema library:
 * the collector bundles this file into every public page (collector-size.test.ts).
 */

export const channels = ['direct', 'search', 'social', 'email', 'paid', 'referral'] as const;
export type Channel = (typeof channels)[number];

/** The longest source, medium, campaign, content or term kept; longer ones are cut by the collector. */
export const SOURCE_VALUE_MAX = 100;

/** What a visit without utm tags, ref and referrer is counted as. */
export const DIRECT = 'direct';

export type VisitSource = {
  source: string;
  medium: string;
  campaign: string;
  channel: Channel;
  /** utm_content (the link's variant) and utm_term (its keyword), when the link had them. */
  content?: string;
  term?: string;
};

/** Hosts that send visitors back from the checkout (Stripe's): never a source. */
const CHECKOUT_HOST = /stripe\.com$/;

/**
 * Ad click ids (gclid, fbclid, msclkid, ttclid, twclid, dclid, yclid, gbraid, wbraid, …):
 * they mark a paid visit and are never stored or sent. Matched loosely, to stay small.
 */
const CLICK_ID = /(^|&)\w*(clk?id|braid)=/;

/** Lower case, spaces for runs of blanks and control characters, cut to SOURCE_VALUE_MAX, trimmed. */
export function normaliseSourceValue(value: string | null | undefined): string {
  return (
    (value ?? '')
      .toLowerCase()
      // eslint-disable-next-line no-control-regex -- control characters are what it removes
      .replace(/[\s\x00-\x1f\x7f]+/g, ' ')
      .slice(0, SOURCE_VALUE_MAX)
      .trim()
  );
}

/**
 * The visit's source from the page's address (the query before the hash route and the hash
 * route's own), the referrer and our own host: utm_* first, else ref or source, else the referrer's
 * host (not ours, not the checkout's), else direct. Its channel here is only what the address
 * alone tells (paid for an ad click id); the server gives the rest (server/insights/channel.ts).
 * Undefined for a direct visit, which is what an event or order without a source means.
 */
export function visitSourceOf(
  address: string,
  referrer: string,
  ownHost: string,
): VisitSource | undefined {
  const query = address.split(/[?#]/).slice(1).join('&');
  const params = new URLSearchParams(query);
  const read = (name: string) => normaliseSourceValue(params.get(name));
  let source = read('utm_source') || read('ref') || read('source');
  const medium = source && read('utm_medium');
  const campaign = source && read('utm_campaign');
  const content = source && read('utm_content');
  const term = source && read('utm_term');
  if (!source) {
    try {
      const url = new URL(referrer);
      if (url.host !== ownHost && !CHECKOUT_HOST.test(url.hostname)) {
        source = normaliseSourceValue(url.hostname.replace(/^www\./, ''));
      }
    } catch {
      // No referrer, or one that is not a URL: a direct visit.
    }
  }
  const paid = CLICK_ID.test(query);
  if (!source && !paid) return undefined;
  return {
    source: source || DIRECT,
    medium,
    campaign,
    channel: paid ? 'paid' : 'referral',
    ...(content && { content }),
    ...(term && { term }),
  };
}
