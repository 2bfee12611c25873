import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import type { SourceRow } from '../../../shared/insights/insights-api';
import { groupName, groupRows, groupsToCsv, sortGroups } from './sources-summary';

const row = (overrides: Partial<SourceRow>): SourceRow => ({
  source: 'direct',
  medium: '',
  campaign: '',
  channel: 'direct',
  visitors: 0,
  guideRequests: 0,
  checkoutClicks: 0,
  purchases: 0,
  revenue: 0,
  ...overrides,
});

const rows = [
  row({
    source: 'ig',
    campaign: 'spring',
    channel: 'social',
    visitors: 40,
    checkoutClicks: 4,
    purchases: 2,
    revenue: 5400,
  }),
  row({ source: 'ig', campaign: 'autumn', channel: 'social', visitors: 10, purchases: 0 }),
  row({
    source: 'ig',
    medium: 'cpc',
    campaign: 'spring',
    channel: 'paid',
    visitors: 5,
    purchases: 1,
    revenue: 2700,
  }),
  row({ source: 'direct', visitors: 100, guideRequests: 3, purchases: 1, revenue: 2700 }),
  row({ source: '=cmd|calc', channel: 'referral', visitors: 1 }),
];

describe('sources and campaigns panels', () => {
  it('sums rows by source, with the channel most of them came by and the conversion', () => {
    const groups = groupRows(rows, 'sources');
    const ig = groups.find((group) => group.source === 'ig')!;
    expect(ig).toMatchObject({
      channel: 'social',
      visitors: 55,
      checkoutClicks: 4,
      purchases: 3,
      revenue: 8100,
    });
    expect(ig.conversion).toBeCloseTo(3 / 55);
    expect(groups).toHaveLength(3);
  });

  it('lists only tagged campaigns, by source, medium and campaign', () => {
    const groups = groupRows(rows, 'campaigns');
    expect(groups.map((group) => groupName(group, 'campaigns')).sort()).toEqual([
      'ig / autumn',
      'ig / cpc / spring',
      'ig / spring',
    ]);
  });

  it('sorts by any column, both ways, ties by name', () => {
    const groups = groupRows(rows, 'sources');
    const names = (column: Parameters<typeof sortGroups>[1]['column'], descending: boolean) =>
      sortGroups(groups, { column, descending }, 'sources').map((group) => group.source);
    expect(names('visitors', true)).toEqual(['direct', 'ig', '=cmd|calc']);
    expect(names('revenue', true)).toEqual(['ig', 'direct', '=cmd|calc']);
    expect(names('name', false)).toEqual(['=cmd|calc', 'direct', 'ig']);
    expect(names('conversion', true)).toEqual(['ig', 'direct', '=cmd|calc']);
  });

  it('writes the CSV with revenue in currency units and formula cells escaped', () => {
    const csv = groupsToCsv(
      sortGroups(groupRows(rows, 'sources'), { column: 'visitors', descending: true }, 'sources'),
      'sources',
      'usd',
    );
    const cells = Papa.parse<string[]>(csv).data;
    expect(cells[0]).toEqual([
      'Source',
      'Channel',
      'Visitors',
      'Guide requests',
      'Checkout clicks',
      'Purchases',
      'Revenue (USD)',
      'Conversion',
    ]);
    expect(cells[1]).toEqual(['direct', 'direct', '100', '3', '0', '1', '27.00', '0.0100']);
    expect(cells[3]![0]).toBe("'=cmd|calc");
  });
});
