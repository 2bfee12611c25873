import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { auditPath, type AuditEntry } from '../../../shared/admin/audit-api';
import {
  fakeApi,
  type FakeReply,
  type FakeRequest,
} from '../../../../tests/support/client/fake-api';
import { ActivityPage } from './activity-page';

const entry = (values: Partial<AuditEntry>): AuditEntry => ({
  id: 1,
  adminEmail: 'owner@example.com',
  action: 'create',
  tableName: 'refund_inquiries',
  rowIds: [7],
  before: null,
  after: [{ id: 7, name: 'Ann' }],
  createdAt: '2025-05-01T09:00:00.000Z',
  restoredAt: null,
  restoredBy: null,
  ...values,
});

function json(status: number, body: unknown): FakeReply {
  return { status, body };
}

afterEach(() => vi.unstubAllGlobals());

describe('Activity page', () => {
  it('lists entries with who, what and when, and restores a delete', async () => {
    let restored = false;
    const audit = ({ method }: FakeRequest) => {
      if (method === 'POST') {
        restored = true;
        return json(200, { restored: 2, entry: entry({ id: 2, action: 'bulk_delete' }) });
      }
      return json(200, {
        rows: [
          entry({
            id: 2,
            action: 'bulk_delete',
            rowIds: [3, 4],
            before: [{ id: 3 }, { id: 4 }],
            after: null,
            restoredAt: restored ? '2025-05-02T09:00:00.000Z' : null,
          }),
          entry({}),
        ],
        count: 2,
        page: 0,
        pageSize: 20,
      });
    };
    const { fetch } = fakeApi({ [auditPath()]: audit, [`${auditPath()}/*`]: audit });
    render(<ActivityPage />);
    expect(screen.getByRole('status').textContent).toBe('Loading activity…');
    const items = await screen.findAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(items[0]!.textContent).toContain('Bulk deleted');
    expect(items[0]!.textContent).toContain('2 rows 3, 4');
    expect(items[0]!.textContent).toContain('owner@example.com');
    expect(within(items[1]!).queryByRole('button', { name: /Restore/ })).toBeNull();
    expect(screen.getByText('Page 1 of 1 (2 entries)')).toBeDefined();

    fireEvent.click(
      screen.getByRole('button', { name: 'Restore 2 rows 3, 4 of refund_inquiries' }),
    );
    expect(await screen.findByText('Restored 2 rows of refund_inquiries.')).toBeDefined();
    expect(fetch).toHaveBeenCalledWith(
      '/api/admin/audit/2/restore',
      expect.objectContaining({ method: 'POST', body: '{}' }),
    );
    await waitFor(() => expect(screen.queryByRole('button', { name: /^Restore/ })).toBeNull());
  });

  it('shows the server’s message when a restore is refused, and an empty log', async () => {
    const refusing = ({ method }: FakeRequest) =>
      method === 'POST'
        ? json(409, { error: 'Conflict', message: 'Cannot restore: id 3 of x is taken.' })
        : json(200, {
            rows: [entry({ id: 5, action: 'delete', before: [{ id: 3 }], after: null })],
            count: 1,
            page: 0,
            pageSize: 20,
          });
    fakeApi({ [auditPath()]: refusing, [`${auditPath()}/*`]: refusing });
    render(<ActivityPage />);
    fireEvent.click(await screen.findByRole('button', { name: /^Restore/ }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Cannot restore: id 3 of x is taken.',
    );
  });

  it('labels a publish, says which version a restore brought back, and offers no Restore', async () => {
    const version = (number: number) => ({ version: number, published_by: 'owner@example.com' });
    fakeApi({
      [auditPath()]: json(200, {
        rows: [
          entry({
            id: 9,
            action: 'publish',
            tableName: 'store_versions',
            rowIds: [3],
            before: [{ version: 1 }],
            after: [version(3)],
          }),
          entry({
            id: 8,
            action: 'publish',
            tableName: 'store_versions',
            rowIds: [2],
            after: [version(2)],
          }),
        ],
        count: 2,
        page: 0,
        pageSize: 20,
      }),
    });
    render(<ActivityPage />);
    const items = await screen.findAllByRole('listitem');
    expect(items.map((item) => item.querySelector('p')!.textContent)).toEqual([
      'Publishedstore_versionsrow 3(version 1 restored)',
      'Publishedstore_versionsrow 2',
    ]);
    expect(screen.queryByRole('button', { name: /^Restore/ })).toBeNull();
  });

  it('says when there is nothing yet, and when the log cannot be loaded', async () => {
    fakeApi({ [auditPath()]: json(200, { rows: [], count: 0, page: 0, pageSize: 20 }) });
    const { unmount } = render(<ActivityPage />);
    expect(await screen.findByText('No admin changes yet.')).toBeDefined();
    unmount();
    fakeApi({ [auditPath()]: json(500, { error: 'Error', message: 'Database down.' }) });
    render(<ActivityPage />);
    expect((await screen.findByRole('alert')).textContent).toContain(
      'Could not load the activity: Database down.',
    );
  });
});
