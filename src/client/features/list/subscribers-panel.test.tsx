import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ADMIN_SUBSCRIBERS_PATH,
  type AdminSubscriber,
  type SubscriberPage,
} from '../../../shared/list/list-api';
import { fakeApi } from '../../../../tests/support/client/fake-api';
import { SubscribersPanel, unsubscribeConfirmation } from './subscribers-panel';

const subscriber = (id: number, values: Partial<AdminSubscriber> = {}): AdminSubscriber => ({
  id,
  email: `reader${id}@example.com`,
  name: `Reader ${id}`,
  status: 'confirmed',
  source: 'free-guide',
  createdAt: '2026-11-24T09:00:00.000Z',
  confirmedAt: '2026-11-24T09:05:00.000Z',
  unsubscribedAt: null,
  events: [
    {
      kind: 'asked',
      wordingVersion: 3,
      source: 'free-guide form',
      createdAt: '2026-11-24T09:00:00.000Z',
    },
    {
      kind: 'confirmed',
      wordingVersion: 3,
      source: 'confirmation link',
      createdAt: '2026-11-24T09:05:00.000Z',
    },
  ],
  ...values,
});

const page: SubscriberPage = {
  rows: [subscriber(2), subscriber(1, { status: 'unsubscribed' })],
  count: 2,
  counts: {
    status: { pending: 0, confirmed: 1, unsubscribed: 1, bounced: 0, complained: 0 },
    source: { 'free-guide': 2, checkout: 0, import: 0 },
  },
};

afterEach(() => vi.restoreAllMocks());

describe('Subscribers panel', () => {
  it('shows counts, each consent history with its wording version, and unsubscribes by hand', async () => {
    const api = fakeApi({
      [ADMIN_SUBSCRIBERS_PATH]: () => ({ status: 200, body: page }),
      [`${ADMIN_SUBSCRIBERS_PATH}/*`]: () => ({
        status: 200,
        body: { subscriber: subscriber(2, { status: 'unsubscribed' }) },
      }),
    });
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    render(<SubscribersPanel />);
    expect(await screen.findByText('reader2@example.com')).toBeDefined();
    expect(screen.getAllByText(/wording v3/)).toHaveLength(4);
    // Only an active subscriber can be unsubscribed.
    expect(screen.queryByRole('button', { name: 'Unsubscribe reader1@example.com' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Unsubscribe reader2@example.com' }));
    expect(window.confirm).toHaveBeenCalledWith(unsubscribeConfirmation(subscriber(2)));
    expect(await screen.findByText('reader2@example.com is unsubscribed.')).toBeDefined();
    expect(api.calls).toContain(`POST ${ADMIN_SUBSCRIBERS_PATH}/2/unsubscribe`);
    expect(screen.getByRole('link', { name: 'Export CSV' }).getAttribute('href')).toBe(
      `${ADMIN_SUBSCRIBERS_PATH}/export`,
    );
  });

  it('checks an import first, then imports what the check found', async () => {
    const api = fakeApi({
      [ADMIN_SUBSCRIBERS_PATH]: () => ({ status: 200, body: page }),
      [`${ADMIN_SUBSCRIBERS_PATH}/*`]: ({ url }) => ({
        status: 200,
        body: { rows: 3, valid: 2, invalid: 1, duplicates: 0, dryRun: url.includes('dryRun=1') },
      }),
    });
    render(<SubscribersPanel />);
    await screen.findByText('reader2@example.com');
    const file = new File(['email\na@example.com\nb@example.com\nbad'], 'list.csv', {
      type: 'text/csv',
    });
    fireEvent.change(screen.getByLabelText('CSV file'), { target: { files: [file] } });
    const check = screen.getByRole('button', { name: 'Check the file' });
    await waitFor(() => expect(check).toHaveProperty('disabled', false));
    expect(screen.getByRole('button', { name: /^Import/ })).toHaveProperty('disabled', true);
    fireEvent.click(check);
    expect(await screen.findByText(/^Checked 3 rows: 2 new/)).toBeDefined();
    fireEvent.click(screen.getByRole('button', { name: 'Import 2 new' }));
    expect(await screen.findByText(/^Imported 3 rows/)).toBeDefined();
    expect(api.calls).toEqual(
      expect.arrayContaining([
        `POST ${ADMIN_SUBSCRIBERS_PATH}/import?dryRun=1`,
        `POST ${ADMIN_SUBSCRIBERS_PATH}/import`,
      ]),
    );
  });
});
