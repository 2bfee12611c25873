import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  ADMIN_INSIGHTS_PATH,
  ADMIN_INSIGHTS_SOURCES_PATH,
  type InsightSources,
  type SourceRow,
} from '../../../shared/insights/insights-api';
import { paths } from '../../../shared/paths';
import { fakeApi } from '../../../../tests/support/client/fake-api';
import { renderAtPath } from '../../../../tests/support/client/hash-route';
import { InsightsPage } from './insights-page';

const NOW = new Date('2026-11-25T12:00:00Z');

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

const day = (date: string, visitors = 0, purchases = 0) => ({
  date,
  visitors,
  pageviews: visitors,
  purchases,
  revenue: purchases * 2700,
});

function answer(source: string | null): InsightSources {
  return {
    from: '2026-11-24',
    to: '2026-11-25',
    currency: 'usd',
    rows: [
      row({
        source: 'ig',
        campaign: 'spring',
        channel: 'social',
        visitors: 40,
        checkoutClicks: 4,
        purchases: 2,
        revenue: 5400,
      }),
      row({ source: 'direct', visitors: 100, guideRequests: 3, purchases: 1, revenue: 2700 }),
    ],
    days:
      source === 'ig'
        ? [day('2026-11-24', 10, 1), day('2026-11-25', 30, 1)]
        : [day('2026-11-24', 60, 1), day('2026-11-25', 80, 2)],
    entries: [{ path: '/', visitors: 120 }],
    clients: [{ browser: 'safari', device: 'mobile', visitors: 90 }],
  };
}

beforeEach(() => {
  vi.useFakeTimers({ now: NOW, toFake: ['Date'] });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  window.history.replaceState(null, '', '#/');
});

describe('Insights: sources and campaigns', () => {
  it('shows sources and campaigns with conversion, sorts, and filters the chart by source', async () => {
    const { calls } = fakeApi({
      [ADMIN_INSIGHTS_SOURCES_PATH]: ({ params }) => ({
        status: 200,
        body: answer(params.get('source')),
      }),
      [ADMIN_INSIGHTS_PATH]: { status: 500 },
    });
    renderAtPath(
      `${paths.adminInsights}?from=2026-11-24&to=2026-11-25&view=sources`,
      <InsightsPage />,
    );
    expect(screen.getByText('Loading sources…')).toBeDefined();
    const sources = await screen.findByRole('region', { name: 'Sources' });
    expect(calls).toEqual([`GET ${ADMIN_INSIGHTS_SOURCES_PATH}?from=2026-11-24&to=2026-11-25`]);
    expect(
      screen.getByRole('link', { name: 'Sources and campaigns' }).getAttribute('aria-current'),
    ).toBe('page');

    const names = () =>
      within(sources)
        .getAllByRole('rowheader')
        .map((cell) => cell.textContent);
    expect(names()).toEqual(['direct', 'ig']);
    const ig = within(sources).getByRole('rowheader', { name: 'ig' }).closest('tr')!;
    expect([...ig.querySelectorAll('td')].map((cell) => cell.textContent)).toEqual([
      'Social',
      '40',
      '0',
      '4',
      '2',
      '$54.00',
      '5%',
    ]);
    fireEvent.click(within(sources).getByRole('button', { name: 'Revenue' }));
    expect(names()).toEqual(['ig', 'direct']);
    fireEvent.click(within(sources).getByRole('button', { name: /Revenue/ }));
    expect(names()).toEqual(['direct', 'ig']);

    const campaigns = screen.getByRole('region', { name: 'Campaigns' });
    expect(
      within(campaigns)
        .getAllByRole('rowheader')
        .map((cell) => cell.textContent),
    ).toEqual(['ig / spring']);

    const chart = screen.getByRole('region', { name: 'Visitors per day by source' });
    fireEvent.change(within(chart).getByLabelText('Source'), { target: { value: 'ig' } });
    await waitFor(() =>
      expect(calls.at(-1)).toBe(
        `GET ${ADMIN_INSIGHTS_SOURCES_PATH}?from=2026-11-24&to=2026-11-25&source=ig`,
      ),
    );
    await waitFor(() =>
      expect(within(chart).getByRole('img').getAttribute('aria-label')).toMatch(
        /^Daily visitors and page views of ig from .*40 visitors/,
      ),
    );
    expect(screen.getByRole('region', { name: 'Top entry routes' }).textContent).toContain('/120');
    expect(screen.getByRole('region', { name: 'Browsers and devices' }).textContent).toContain(
      'safari, mobile90',
    );
  });

  it('says so when no source or campaign is in the range', async () => {
    fakeApi({
      [ADMIN_INSIGHTS_SOURCES_PATH]: {
        status: 200,
        body: {
          ...answer(null),
          rows: [],
          days: [day('2026-11-24'), day('2026-11-25')],
          entries: [],
          clients: [],
        },
      },
    });
    renderAtPath(
      `${paths.adminInsights}?from=2026-11-24&to=2026-11-25&view=sources`,
      <InsightsPage />,
    );
    expect(await screen.findByText('No source in this range yet.')).toBeDefined();
    expect(screen.getByText(/No campaign in this range/)).toBeDefined();
  });
});
