import Papa from 'papaparse';
import { FORMULA_LEAD } from '../../../shared/admin/csv-cells';
import type { SourceRow } from '../../../shared/insights/insights-api';
import type { Channel } from '../../../shared/insights/visit-source';
import { shareOf } from './insights-summary';

/** One line of the Sources or Campaigns panel: the rows of one source or one campaign, summed. */
export type SourceGroup = {
  key: string;
  source: string;
  medium: string;
  campaign: string;
  /** The channel most of its visitors came by. */
  channel: Channel;
  visitors: number;
  guideRequests: number;
  checkoutClicks: number;
  purchases: number;
  revenue: number;
  /** Purchases per visitor; null without visitors. */
  conversion: number | null;
};

export type GroupKind = 'sources' | 'campaigns';

export const sortColumns = [
  'name',
  'channel',
  'visitors',
  'guideRequests',
  'checkoutClicks',
  'purchases',
  'revenue',
  'conversion',
] as const;
export type SortColumn = (typeof sortColumns)[number];
export type Sort = { column: SortColumn; descending: boolean };

export const columnLabels: Record<SortColumn, string> = {
  name: 'Source',
  channel: 'Channel',
  visitors: 'Visitors',
  guideRequests: 'Guide requests',
  checkoutClicks: 'Checkout clicks',
  purchases: 'Purchases',
  revenue: 'Revenue',
  conversion: 'Conversion',
};

export { channelLabels } from '../../lib/channel-labels';

/** A group's name as the panel shows it: the source, or source / medium / campaign. */
export function groupName(group: SourceGroup, kind: GroupKind): string {
  if (kind === 'sources') return group.source;
  return [group.source, group.medium, group.campaign].filter(Boolean).join(' / ');
}

/**
 * The server's rows summed by source (Sources) or by source, medium and campaign for the rows
 * that name a campaign (Campaigns).
 */
export function groupRows(rows: SourceRow[], kind: GroupKind): SourceGroup[] {
  const groups = new Map<string, SourceGroup & { byChannel: Map<Channel, number> }>();
  for (const row of rows) {
    if (kind === 'campaigns' && !row.campaign) continue;
    const key =
      kind === 'sources' ? row.source : JSON.stringify([row.source, row.medium, row.campaign]);
    let group = groups.get(key);
    if (!group) {
      group = {
        key,
        source: row.source,
        medium: kind === 'sources' ? '' : row.medium,
        campaign: kind === 'sources' ? '' : row.campaign,
        channel: row.channel,
        visitors: 0,
        guideRequests: 0,
        checkoutClicks: 0,
        purchases: 0,
        revenue: 0,
        conversion: null,
        byChannel: new Map(),
      };
      groups.set(key, group);
    }
    group.visitors += row.visitors;
    group.guideRequests += row.guideRequests;
    group.checkoutClicks += row.checkoutClicks;
    group.purchases += row.purchases;
    group.revenue += row.revenue;
    group.byChannel.set(
      row.channel,
      (group.byChannel.get(row.channel) ?? 0) + row.visitors + row.purchases,
    );
  }
  return [...groups.values()].map(({ byChannel, ...group }) => ({
    ...group,
    channel: [...byChannel].reduce((best, next) => (next[1] > best[1] ? next : best))[0],
    conversion: shareOf(group.purchases, group.visitors),
  }));
}

/** The groups in the order asked for; ties by name, so the order never jumps. */
export function sortGroups(groups: SourceGroup[], sort: Sort, kind: GroupKind): SourceGroup[] {
  const value = (group: SourceGroup): string | number =>
    sort.column === 'name'
      ? groupName(group, kind)
      : sort.column === 'conversion'
        ? (group.conversion ?? -1)
        : group[sort.column];
  return [...groups].sort((a, b) => {
    const [x, y] = [value(a), value(b)];
    const order =
      typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
    const directed = sort.descending ? -order : order;
    return directed || groupName(a, kind).localeCompare(groupName(b, kind));
  });
}

/** The panel as CSV: every group with its figures; revenue in the currency's units. */
export function groupsToCsv(groups: SourceGroup[], kind: GroupKind, currency: string): string {
  const names = kind === 'sources' ? ['Source'] : ['Source', 'Medium', 'Campaign'];
  const fields = [
    ...names,
    'Channel',
    'Visitors',
    'Guide requests',
    'Checkout clicks',
    'Purchases',
    `Revenue (${currency.toUpperCase()})`,
    'Conversion',
  ];
  const data = groups.map((group) => [
    ...(kind === 'sources' ? [group.source] : [group.source, group.medium, group.campaign]),
    group.channel,
    group.visitors,
    group.guideRequests,
    group.checkoutClicks,
    group.purchases,
    (group.revenue / 100).toFixed(2),
    group.conversion === null ? '' : group.conversion.toFixed(4),
  ]);
  return Papa.unparse({ fields, data }, { escapeFormulae: FORMULA_LEAD });
}
