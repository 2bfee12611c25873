import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DeliveryEntry, DeliveryPage } from '../../../shared/mail/delivery-api';
import { createDeliveryApi } from './delivery-api-client';
import { DeliveriesPanel } from './deliveries-panel';

const entry = (id: number, values: Partial<DeliveryEntry>): DeliveryEntry => ({
  id,
  sourceTable: 'form_submissions',
  sourceId: id,
  recipient: 'owner@example.com',
  subject: `Subject ${id}`,
  state: 'sent',
  attempts: 1,
  nextAttemptAt: null,
  lastError: null,
  sentAt: '2026-11-24T10:00:00.000Z',
  failedAt: null,
  createdAt: '2026-11-24T09:59:00.000Z',
  ...values,
});

const entries = [
  entry(3, {
    state: 'retrying',
    sentAt: null,
    lastError: '550 Mailbox unavailable',
    nextAttemptAt: '2026-11-24T11:00:00.000Z',
  }),
  entry(2, { state: 'failed', sentAt: null, attempts: 7, lastError: 'no answer within 10000 ms' }),
  entry(1, {}),
];

/** The delivery log API in jsdom, from the entries above; records each call. */
function fakeLog(options: { failList?: boolean; oldestPendingSeconds?: number } = {}) {
  const calls: string[] = [];
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    calls.push(`${init?.method ?? 'GET'} ${url}`);
    const json = (status: number, body: unknown) =>
      new Response(JSON.stringify(body), {
        status,
        headers: { 'content-type': 'application/json' },
      });
    if (init?.method === 'POST') return json(201, { delivery: entry(9, { state: 'sending' }) });
    if (options.failList) return json(503, { error: 'Unavailable', message: 'Try later.' });
    const query = new URL(url, 'http://localhost').searchParams;
    const state = query.get('state');
    const shown = entries.filter((e) => state === 'all' || e.state === state);
    const page: DeliveryPage = {
      entries: shown,
      count: shown.length,
      counts: { sending: 0, retrying: 1, sent: 1, failed: 1 },
      page: Number(query.get('page')),
      pageSize: 25,
      queue: {
        pending: 1,
        oldestPendingSeconds: options.oldestPendingSeconds ?? 40,
        late: (options.oldestPendingSeconds ?? 40) >= 300,
      },
    };
    return json(200, page);
  });
  return calls;
}

afterEach(() => vi.unstubAllGlobals());

const api = () => createDeliveryApi({ onUnauthorized: vi.fn() });

describe('deliveries panel', () => {
  it('says nothing about lateness while the oldest waiting email is recent', async () => {
    fakeLog({ oldestPendingSeconds: 40 });
    render(<DeliveriesPanel api={api()} />);
    await screen.findAllByRole('listitem');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByText(/Emails are late/)).toBeNull();
  });

  it('warns when the oldest waiting email is late, with how long it has waited', async () => {
    fakeLog({ oldestPendingSeconds: 750 });
    render(<DeliveriesPanel api={api()} />);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Emails are late.');
    expect(alert.textContent).toContain('The oldest of the 1 waiting was queued 12 minutes ago.');
    expect(alert.textContent).toContain('SMTP_URL');
  });

  it('lists every delivery with its state, next attempt, error and counts', async () => {
    fakeLog();
    render(<DeliveriesPanel api={api()} />);
    expect(screen.getByRole('status').textContent).toContain('Loading deliveries');
    const items = await screen.findAllByRole('listitem');
    expect(items).toHaveLength(3);
    expect(items[0]!.textContent).toContain('Retrying');
    expect(items[0]!.textContent).toContain('Next attempt');
    expect(items[0]!.textContent).toContain('Last error: 550 Mailbox unavailable');
    expect(items[1]!.textContent).toContain('Gave up after 7 attempts');
    expect(items[2]!.textContent).toContain('Sent');
    expect(items[2]!.textContent).not.toContain('Last error');
    expect(screen.getByRole('button', { name: 'All 3' }).getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByText('Page 1 of 1 (3 emails)')).toBeDefined();
  });

  it('filters by state and resends one email', async () => {
    const calls = fakeLog();
    render(<DeliveriesPanel api={api()} />);
    await screen.findAllByRole('listitem');
    fireEvent.click(screen.getByRole('button', { name: 'Failed 1' }));
    // The unfiltered list shows Subject 2 too: wait until the failed ones replace it.
    await waitFor(() => expect(screen.getAllByRole('listitem')).toHaveLength(1));
    expect(within(screen.getByRole('listitem')).getByText('Subject 2')).toBeDefined();
    expect(calls).toContain('GET /api/admin/deliveries?state=failed&page=0');

    fireEvent.click(
      within(screen.getByRole('listitem')).getByRole('button', { name: /^Resend email 2/ }),
    );
    expect((await screen.findByRole('status')).textContent).toBe(
      'The email to owner@example.com was queued again.',
    );
    expect(calls).toContain('POST /api/admin/deliveries/2/resend');
  });

  it('says so when a filter has no emails, and shows an error with a retry', async () => {
    fakeLog({ failList: true });
    render(<DeliveriesPanel api={api()} />);
    expect((await screen.findByRole('alert')).textContent).toContain(
      'Could not load the deliveries: Try later.',
    );
    fakeLog();
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await screen.findAllByRole('listitem');
    fireEvent.click(screen.getByRole('button', { name: 'Sending 0' }));
    expect(await screen.findByText('No sending emails.')).toBeDefined();
  });
});
