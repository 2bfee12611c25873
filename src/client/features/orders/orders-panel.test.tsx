import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ADMIN_ORDERS_PATH,
  type AdminOrder,
  type OrderPage,
} from '../../../shared/orders/order-api';
import { fakeApi, type FakeReply, type FakeRoute } from '../../../../tests/support/client/fake-api';
import { formatAmount } from '../../lib/format-amount';
import { SEARCH_DELAY_MS } from '../../lib/use-debounced';
import { formatDate } from '../../lib/format-date';
import { approveConfirmation, OrdersPanel, revokeConfirmation } from './orders-panel';

/** The admin orders routes, each answered by `answer`; returns the requests as `METHOD url`. */
function adminOrders(answer: FakeRoute) {
  return fakeApi({ [ADMIN_ORDERS_PATH]: answer, [`${ADMIN_ORDERS_PATH}/*`]: answer }).calls;
}

const order = (id: number, values: Partial<AdminOrder> = {}): AdminOrder => ({
  id,
  provider: 'stripe',
  sessionId: `cs_test_${id}`,
  paymentIntent: `pi_${id}`,
  email: `buyer${id}@example.com`,
  name: `Buyer ${id}`,
  amountTotal: 2700,
  currency: 'usd',
  status: 'paid',
  paidAt: '2026-11-24T10:00:00.000Z',
  createdAt: '2026-11-24T09:59:00.000Z',
  updatedAt: '2026-11-24T10:00:00.000Z',
  notes: '',
  downloads: 2,
  activeLinks: 1,
  linksRevokedAt: null,
  source: null,
  ...values,
});

const stored = [
  order(3, { status: 'review', amountTotal: 100, currency: 'eur', paidAt: null, activeLinks: 0 }),
  order(2, { status: 'refunded', activeLinks: 0, notes: 'Refunded on request' }),
  order(1),
];

/** The admin orders API over `orders`; `fail` answers the list with that reply instead. */
function fakeOrders(orders: AdminOrder[], fail?: FakeReply) {
  return adminOrders(({ method, url: path, body }) => {
    const url = new URL(path, 'http://localhost');
    const match = /^\/api\/admin\/orders\/(\d+)(\/.+)?$/.exec(url.pathname);
    if (match) {
      const found = orders.find((o) => o.id === Number(match[1]))!;
      if (method === 'PUT')
        return { status: 200, body: { order: { ...found, ...(body as object) } } };
      if (match[2] === '/revoke')
        return {
          status: 200,
          body: { order: { ...found, activeLinks: 0, linksRevokedAt: '2026-11-24T12:00:00.000Z' } },
        };
      if (found.status !== 'paid' && found.status !== 'review')
        return { status: 409, body: { message: 'Only a paid order gets a new link.' } };
      return {
        status: 201,
        body: {
          order: {
            ...found,
            status: 'paid',
            linksRevokedAt: null,
            activeLinks: found.activeLinks + 1,
          },
        },
      };
    }
    if (fail) return fail;
    const status = url.searchParams.get('status');
    const q = url.searchParams.get('q');
    const shown = orders.filter(
      (o) => (!status || o.status === status) && (!q || o.email.includes(q) || o.name?.includes(q)),
    );
    const page: OrderPage = {
      orders: shown,
      count: shown.length,
      page: Number(url.searchParams.get('page')),
      pageSize: 25,
    };
    return { status: 200, body: page };
  });
}

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const bodyRows = () => screen.getAllByRole('row').slice(1);

describe('orders panel', () => {
  it('lists the orders newest first with status, amount, buyer, downloads, links and payment time', async () => {
    const calls = fakeOrders(stored);
    render(<OrdersPanel />);
    expect(screen.getByRole('status').textContent).toContain('Loading orders');
    await screen.findByRole('table');
    const rows = bodyRows();
    expect(rows).toHaveLength(3);
    const cells = (row: HTMLElement) =>
      within(row)
        .getAllByRole('cell')
        .map((c) => c.textContent);
    expect(cells(rows[0]!).slice(0, 7)).toEqual([
      '#3Review',
      formatAmount(100, 'eur'),
      'Buyer 3buyer3@example.com',
      '2',
      '0',
      'Direct',
      '—',
    ]);
    expect(cells(rows[1]!)[0]).toBe('#2RefundedRefunded on request');
    expect(cells(rows[2]!)[1]).toBe(formatAmount(2700, 'usd'));
    expect(formatAmount(2700, 'usd')).toMatch(/27\.00/);
    expect(formatAmount(100, 'eur')).toMatch(/1[.,]00/);
    expect(formatAmount(500, 'jpy')).toMatch(/500/);
    expect(cells(rows[2]!)[6]).toBe(formatDate('2026-11-24T10:00:00.000Z', 'short'));
    expect(formatDate('2026-11-24T10:00:00.000Z', 'short')).toMatch(/2026/);
    // Resend only for a paid order (Send for one held for review), revoke only where a link
    // still works.
    expect(within(rows[0]!).queryByRole('button', { name: /Resend link/ })).toBeNull();
    expect(within(rows[0]!).getByRole('button', { name: 'Send link of order #3' })).toBeDefined();
    expect(within(rows[0]!).queryByRole('button', { name: /Revoke links/ })).toBeNull();
    expect(within(rows[1]!).queryByRole('button', { name: /Send link|Resend link/ })).toBeNull();
    expect(within(rows[1]!).queryByRole('button', { name: /Revoke links/ })).toBeNull();
    expect(within(rows[2]!).getByRole('button', { name: 'Resend link of order #1' })).toBeDefined();
    expect(
      within(rows[2]!).getByRole('button', { name: 'Revoke links of order #1' }),
    ).toBeDefined();
    expect(screen.getByText('Page 1 of 1 (3 orders)')).toBeDefined();
    expect(calls).toEqual(['GET /api/admin/orders?page=0']);
  });

  it('shows where each buyer came from: source, channel and the tags the link had', async () => {
    fakeOrders([
      order(2, {
        source: {
          ...{ source: 'ig', medium: 'social', campaign: 'spring', channel: 'social' },
          ...{ content: 'story b', term: '' },
        },
      }),
      order(1),
    ]);
    render(<OrdersPanel />);
    await screen.findByRole('table');
    expect(screen.getByRole('columnheader', { name: 'Source' })).toBeDefined();
    const sourceCell = (row: HTMLElement) => within(row).getAllByRole('cell')[5]!;
    const [tagged, direct] = bodyRows();
    expect(sourceCell(tagged!).textContent).toBe(
      'igSocialMedium:socialCampaign:springContent:story b',
    );
    expect(within(sourceCell(tagged!)).getByText('spring').tagName).toBe('DD');
    expect(sourceCell(direct!).textContent).toBe('Direct');
  });

  it('filters by status and searches by name or email', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const calls = fakeOrders(stored);
    render(<OrdersPanel />);
    await screen.findByRole('table');

    fireEvent.change(screen.getByLabelText('Status'), { target: { value: 'refunded' } });
    await waitFor(() => expect(bodyRows()).toHaveLength(1));
    expect(calls).toContain('GET /api/admin/orders?page=0&status=refunded');

    fireEvent.change(screen.getByLabelText('Status'), { target: { value: 'all' } });
    await waitFor(() => expect(bodyRows()).toHaveLength(3));
    fireEvent.change(screen.getByLabelText('Search name or email'), {
      target: { value: ' buyer1@ ' },
    });
    await act(() => vi.advanceTimersByTimeAsync(SEARCH_DELAY_MS));
    await waitFor(() => expect(bodyRows()).toHaveLength(1));
    expect(calls.at(-1)).toBe('GET /api/admin/orders?page=0&q=buyer1%40');

    fireEvent.change(screen.getByLabelText('Search name or email'), {
      target: { value: 'nobody' },
    });
    await act(() => vi.advanceTimersByTimeAsync(SEARCH_DELAY_MS));
    expect(await screen.findByText('No orders match.')).toBeDefined();
  });

  it('resends a link and revokes links after confirming', async () => {
    const calls = fakeOrders([order(1), order(2, { status: 'refunded' })]);
    const confirm = vi
      .spyOn(window, 'confirm')
      .mockReturnValueOnce(false)
      .mockReturnValueOnce(true);
    render(<OrdersPanel />);
    await screen.findByRole('table');

    fireEvent.click(screen.getByRole('button', { name: 'Resend link of order #1' }));
    expect((await screen.findByRole('status')).textContent).toBe(
      'A new download link for order #1 is on its way to buyer1@example.com.',
    );
    expect(calls).toContain('POST /api/admin/orders/1/resend-link');
    expect(within(bodyRows()[0]!).getAllByRole('cell')[4]!.textContent).toBe('2');

    fireEvent.click(screen.getByRole('button', { name: 'Revoke links of order #2' }));
    expect(confirm).toHaveBeenLastCalledWith(revokeConfirmation(order(2, { status: 'refunded' })));
    expect(calls).not.toContain('POST /api/admin/orders/2/revoke');

    fireEvent.click(screen.getByRole('button', { name: 'Revoke links of order #2' }));
    expect((await screen.findByRole('status')).textContent).toBe(
      'The download links of order #2 no longer work.',
    );
    expect(calls).toContain('POST /api/admin/orders/2/revoke');
    expect(screen.queryByRole('button', { name: 'Revoke links of order #2' })).toBeNull();
  });

  it('asks before sending the link of an order held for review, which then shows as paid', async () => {
    const held = order(7, { status: 'review', activeLinks: 0, paidAt: null });
    const calls = fakeOrders([held]);
    const confirm = vi
      .spyOn(window, 'confirm')
      .mockReturnValueOnce(false)
      .mockReturnValueOnce(true);
    render(<OrdersPanel />);
    await screen.findByRole('table');

    fireEvent.click(screen.getByRole('button', { name: 'Send link of order #7' }));
    expect(confirm).toHaveBeenLastCalledWith(approveConfirmation(held));
    expect(calls).not.toContain('POST /api/admin/orders/7/resend-link');

    fireEvent.click(screen.getByRole('button', { name: 'Send link of order #7' }));
    expect((await screen.findByRole('status')).textContent).toBe(
      'A new download link for order #7 is on its way to buyer7@example.com.',
    );
    expect(calls).toContain('POST /api/admin/orders/7/resend-link');
    expect(bodyRows()[0]!.textContent).toContain('Paid');
    expect(screen.getByRole('button', { name: 'Resend link of order #7' })).toBeDefined();
  });

  it('marks an order whose links the owner revoked, and offers no second revoke', async () => {
    fakeOrders([order(8, { activeLinks: 0, linksRevokedAt: '2026-11-24T12:00:00.000Z' })]);
    render(<OrdersPanel />);
    await screen.findByRole('table');
    expect(bodyRows()[0]!.textContent).toContain(
      `Links revoked ${formatDate('2026-11-24T12:00:00.000Z', 'short')}`,
    );
    expect(screen.queryByRole('button', { name: 'Revoke links of order #8' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Resend link of order #8' })).toBeDefined();
  });

  it('shows the server’s refusal of an action', async () => {
    // Shown as paid, but refunded on the server since the page loaded.
    adminOrders(({ method }) =>
      method === 'GET'
        ? { status: 200, body: { orders: [order(6)], count: 1, page: 0, pageSize: 25 } }
        : {
            status: 409,
            body: { error: 'Conflict', message: 'Only a paid order gets a new link.' },
          },
    );
    render(<OrdersPanel />);
    await screen.findByRole('table');
    fireEvent.click(screen.getByRole('button', { name: 'Resend link of order #6' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Order #6: Only a paid order gets a new link.',
    );
    expect(screen.getByRole('button', { name: 'Resend link of order #6' })).toBeDefined();
  });

  it('edits an order’s notes', async () => {
    const calls = fakeOrders([order(5)]);
    render(<OrdersPanel />);
    await screen.findByRole('table');

    const toggle = screen.getByRole('button', { name: 'Notes on order #5' });
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    const box = screen.getByRole('textbox', { name: 'Notes on order #5' });
    fireEvent.change(box, { target: { value: 'Asked for an invoice.' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save notes' }));

    expect((await screen.findByRole('status')).textContent).toBe('Notes on order #5 saved.');
    expect(calls).toContain('PUT /api/admin/orders/5');
    expect(screen.queryByRole('textbox', { name: 'Notes on order #5' })).toBeNull();
    expect(bodyRows()[0]!.textContent).toContain('Asked for an invoice.');
  });

  it('says when there are no orders yet, and how they arrive', async () => {
    fakeOrders([]);
    render(<OrdersPanel />);
    expect(await screen.findByText('No orders yet')).toBeDefined();
    expect(screen.getByText(/once Stripe’s webhook is set up/)).toBeDefined();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('shows a load error with a retry', async () => {
    fakeOrders(stored, {
      status: 503,
      body: { error: 'Service Unavailable', message: 'The database is not reachable.' },
    });
    render(<OrdersPanel />);
    expect((await screen.findByRole('alert')).textContent).toContain(
      'Could not load the orders: The database is not reachable.',
    );
    fakeOrders(stored);
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await screen.findByRole('table');
    expect(bodyRows()).toHaveLength(3);
  });
});
