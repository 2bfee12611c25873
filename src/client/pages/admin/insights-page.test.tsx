import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  ADMIN_INSIGHTS_PATH,
  INSIGHTS_MAX_DAYS,
  type Insights,
} from '../../../shared/insights/insights-api';
import { paths } from '../../../shared/paths';
import { fakeApi, type FakeReply } from '../../../../tests/support/client/fake-api';
import { renderAtPath } from '../../../../tests/support/client/hash-route';
import { scaleTop } from '../../features/insights/daily-chart';
import { addDays } from '../../../shared/utc-days';
import { InsightsPage } from './insights-page';

// Today, as the page reads it: every range without one in the address ends here (UTC).
const NOW = new Date('2026-11-25T23:30:00Z');

const day = (date: string, visitors = 0, pageviews = 0, purchases = 0, revenue = 0) => ({
  date,
  visitors,
  pageviews,
  purchases,
  revenue,
});

/** Three days; 40 visitors, 80 page views, 3 purchases for $81.00. */
const sample: Insights = {
  from: '2026-11-20',
  to: '2026-11-22',
  currency: 'usd',
  days: [day('2026-11-20', 10, 25, 1, 2700), day('2026-11-21'), day('2026-11-22', 30, 55, 2, 5400)],
  funnel: [
    { step: 'page_view', visitors: 40 },
    { step: 'popup_shown', visitors: 20 },
    { step: 'guide_requested', visitors: 5 },
    { step: 'checkout_click', visitors: 0 },
    { step: 'purchase', visitors: 3 },
  ],
};

/** The same answer shape for any range: every day of it, all zeros. */
function emptyAnswer(from: string, to: string): Insights {
  const days = [];
  for (let date = from; date <= to; date = addDays(date, 1)) days.push(day(date));
  return {
    from,
    to,
    currency: 'usd',
    days,
    funnel: sample.funnel.map(({ step }) => ({ step, visitors: 0 })),
  };
}

/** The admin insights API: `answer` replies to each request's range. */
function fakeInsights(answer: (from: string, to: string) => FakeReply) {
  return fakeApi({
    [ADMIN_INSIGHTS_PATH]: ({ params }) => answer(params.get('from')!, params.get('to')!),
  }).calls;
}

const open = (search = '') => renderAtPath(`${paths.adminInsights}${search}`, <InsightsPage />);

/** The figure shown under a total's label. */
const figure = (label: string) => screen.getByText(label, { selector: 'dt' }).nextElementSibling;

const funnelRow = (label: string) =>
  screen.getByText(label, { selector: 'li span' }).closest('li') as HTMLElement;

beforeEach(() => {
  vi.useFakeTimers({ now: NOW, toFake: ['Date'] });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  window.history.replaceState(null, '', '#/');
});

describe('Insights page', () => {
  it('shows the totals, the conversion rate, the chart and the funnel of the range in the address', async () => {
    const calls = fakeInsights(() => ({ status: 200, body: sample }));
    open('?from=2026-11-20&to=2026-11-22');
    expect(screen.getByRole('status').textContent).toContain('Loading insights');
    await screen.findByText('Visitors', { selector: 'dt' });
    expect(calls).toEqual(['GET /api/admin/insights?from=2026-11-20&to=2026-11-22']);

    expect(figure('Visitors')?.textContent).toBe('40');
    expect(figure('Page views')?.textContent).toBe('80');
    expect(figure('Purchases')?.textContent).toBe('3');
    expect(figure('Revenue')?.textContent).toBe('$81.00');
    // 3 purchases of 40 visitors.
    expect(figure('Conversion rate')?.textContent).toBe('7.5%');

    expect(screen.getByRole('img').getAttribute('aria-label')).toBe(
      'Daily visitors and page views from 2026-11-20 to 2026-11-22: 40 visitors, 80 page views ' +
        'and 3 purchases in all; the busiest day was 2026-11-22 with 30 visitors.',
    );
    // The scale's top (55 page views rounds up to 100) and the first, middle and last day.
    expect(screen.getByText('100')).toBeDefined();
    expect(screen.getByText('Nov 20')).toBeDefined();
    expect(screen.getByText('Nov 21')).toBeDefined();
    expect(screen.getAllByText('Nov 22').length).toBeGreaterThan(0);
    // Two days had a purchase: each is marked.
    expect(screen.getByRole('img').querySelectorAll('path')).toHaveLength(2);
    const table = screen.getByRole('table');
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => row.textContent)).toEqual([
      '2026-11-2010251$27.00',
      '2026-11-21000$0.00',
      '2026-11-2230552$54.00',
    ]);

    const steps = [
      ['Page view', '40', null],
      ['Popup shown', '20', '50%'],
      ['Guide requested', '5', '25%'],
      ['Checkout clicked', '0', '0%'],
      // After a step nobody reached there is no share to give.
      ['Purchase', '3', '—'],
    ];
    for (const [label, count, share] of steps) {
      const row = funnelRow(label!);
      expect(within(row).getByTestId('funnel-count').textContent).toBe(count);
      expect(within(row).queryByTestId('funnel-share')?.textContent ?? null).toBe(share);
    }
    expect(screen.getByText('Days are counted in UTC.')).toBeDefined();
    expect(screen.getByText(/Visitors are counted without cookies/)).toBeDefined();
  });

  it('asks for the last 30 days ending today (UTC) when the address names no range', async () => {
    const calls = fakeInsights((from, to) => ({ status: 200, body: emptyAnswer(from, to) }));
    open();
    await screen.findByText('Visitors', { selector: 'dt' });
    expect(calls).toEqual(['GET /api/admin/insights?from=2026-10-27&to=2026-11-25']);
    expect(screen.getByLabelText('From')).toHaveProperty('value', '2026-10-27');
    expect(screen.getByLabelText('To')).toHaveProperty('value', '2026-11-25');
    expect(screen.getByRole('button', { name: 'Last 30 days' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
  });

  it('keeps a quick range or two chosen dates in the address and asks the server for them', async () => {
    const calls = fakeInsights((from, to) => ({ status: 200, body: emptyAnswer(from, to) }));
    open();
    await screen.findByText('Visitors', { selector: 'dt' });

    fireEvent.click(screen.getByRole('button', { name: 'Last 7 days' }));
    await waitFor(() =>
      expect(calls.at(-1)).toBe('GET /api/admin/insights?from=2026-11-19&to=2026-11-25'),
    );
    expect(window.location.hash).toBe('#/admin/insights?from=2026-11-19&to=2026-11-25');
    expect(screen.getByRole('button', { name: 'Last 7 days' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    expect(await screen.findByLabelText('From')).toHaveProperty('value', '2026-11-19');

    fireEvent.click(screen.getByRole('button', { name: 'Last 90 days' }));
    await waitFor(() =>
      expect(calls.at(-1)).toBe('GET /api/admin/insights?from=2026-08-28&to=2026-11-25'),
    );

    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-01-01' } });
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-01-31' } });
    fireEvent.click(screen.getByRole('button', { name: 'Show' }));
    await waitFor(() =>
      expect(calls.at(-1)).toBe('GET /api/admin/insights?from=2026-01-01&to=2026-01-31'),
    );
    expect(window.location.hash).toBe('#/admin/insights?from=2026-01-01&to=2026-01-31');
    expect(await screen.findByText('Jan 1 to Jan 31, 31 days')).toBeDefined();
  });

  it('explains a range the server would refuse without asking it', async () => {
    const calls = fakeInsights((from, to) => ({ status: 200, body: emptyAnswer(from, to) }));
    open('?from=2026-11-20&to=2026-11-22');
    await screen.findByText('Visitors', { selector: 'dt' });
    const asked = calls.length;

    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-11-23' } });
    fireEvent.click(screen.getByRole('button', { name: 'Show' }));
    expect(screen.getByRole('alert').textContent).toBe(
      'The start date must not be after the end date.',
    );
    expect(screen.getByLabelText('From').getAttribute('aria-invalid')).toBe('true');

    fireEvent.change(screen.getByLabelText('From'), {
      target: { value: addDays('2026-11-22', -INSIGHTS_MAX_DAYS) },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Show' }));
    expect(screen.getByRole('alert').textContent).toBe(`Choose at most ${INSIGHTS_MAX_DAYS} days.`);

    fireEvent.change(screen.getByLabelText('From'), { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Show' }));
    expect(screen.getByRole('alert').textContent).toBe('Enter a start date.');

    // The longest range allowed is asked for.
    fireEvent.change(screen.getByLabelText('From'), {
      target: { value: addDays('2026-11-22', -(INSIGHTS_MAX_DAYS - 1)) },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Show' }));
    await waitFor(() => expect(calls).toHaveLength(asked + 1));
    expect(calls.at(-1)).toBe('GET /api/admin/insights?from=2025-11-22&to=2026-11-22');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('does not ask for a range from a hand-edited address that cannot be shown', async () => {
    const calls = fakeInsights((from, to) => ({ status: 200, body: emptyAnswer(from, to) }));
    open('?from=2026-11-22&to=2026-11-20');
    expect(screen.getByRole('alert').textContent).toBe(
      'This range cannot be shown: The start date must not be after the end date.',
    );
    await act(() => new Promise((resolve) => setTimeout(resolve, 20)));
    expect(calls).toEqual([]);
  });

  it("shows the server's message for a range it refuses (400), without a retry", async () => {
    fakeInsights(() => ({
      status: 400,
      body: { error: 'Bad Request', message: 'The range may not end after today.' },
    }));
    open('?from=2026-11-20&to=2026-11-22');
    expect((await screen.findByRole('alert')).textContent).toBe(
      'This range cannot be shown: The range may not end after today.',
    );
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
    expect(screen.queryByRole('img')).toBeNull();
  });

  it('offers to try again when the insights could not be fetched, and shows them then', async () => {
    let reply: FakeReply = { status: 503, body: { message: 'The database is not reachable.' } };
    const calls = fakeInsights(() => reply);
    open('?from=2026-11-20&to=2026-11-22');
    expect((await screen.findByRole('alert')).textContent).toContain(
      'Could not load the insights: The database is not reachable.',
    );
    reply = { status: 200, body: sample };
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await screen.findByText('Visitors', { selector: 'dt' });
    expect(figure('Visitors')?.textContent).toBe('40');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(calls).toHaveLength(2);
  });

  it('says so when nothing was counted in the range, still showing zeros and the empty chart', async () => {
    fakeInsights((from, to) => ({ status: 200, body: emptyAnswer(from, to) }));
    open('?from=2026-11-01&to=2026-11-07');
    const empty = await screen.findByText('No visits in this range yet');
    expect(empty.closest('[role="status"]')).not.toBeNull();
    expect(figure('Visitors')?.textContent).toBe('0');
    expect(figure('Revenue')?.textContent).toBe('$0.00');
    expect(figure('Conversion rate')?.textContent).toBe('—');
    expect(screen.getByRole('img').getAttribute('aria-label')).toBe(
      'Daily visitors and page views from 2026-11-01 to 2026-11-07: no visits yet.',
    );
    expect(screen.getByRole('img').querySelectorAll('rect')).toHaveLength(14);
    expect(within(screen.getByRole('table')).getAllByRole('row')).toHaveLength(8);
    expect(within(funnelRow('Popup shown')).getByTestId('funnel-share').textContent).toBe('—');
  });
});

describe('the chart scale', () => {
  it.each([
    [0, 2],
    [1, 2],
    [3, 4],
    [9, 10],
    [10, 10],
    [11, 20],
    [55, 100],
    [101, 200],
    [4999, 5000],
  ])('puts the top of %i at %i, so the half is a whole count too', (max, top) => {
    expect(scaleTop(max)).toBe(top);
    expect(Number.isInteger(scaleTop(max) / 2)).toBe(true);
  });
});
