import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tableConfigSchema, type TableRow } from '../../../shared/admin/table-config';
import formSubmissions from '../../../shared/table-configurations/form-submissions.json';
import { fakeTableServer, sampleRows } from '../../../../tests/support/client/fake-tables';
import { onSessionEnded } from '../../lib/api-client';
import { tableApi } from './table-api-client';
import { TablePanel } from './table-panel';

const config = tableConfigSchema.parse(formSubmissions);
const TABLE = config.db_table_name;

function renderPanel(rows: TableRow[]) {
  const server = fakeTableServer({ [TABLE]: rows });
  render(<TablePanel config={config} api={tableApi} />);
  return { server };
}

/** The grid's rows as the cells' text, header first. */
function gridText() {
  return within(screen.getByRole('table'))
    .getAllByRole('row')
    .map((row) => Array.from(row.querySelectorAll('th, td'), (cell) => cell.textContent));
}

const footer = () => screen.queryByText(/^Page \d+ of \d+/)?.textContent;

let stopWatching = () => {};

afterEach(() => {
  vi.unstubAllGlobals();
  stopWatching();
});

describe('table panel (SPEC.md §2 "Table panel", §4)', () => {
  it('shows a spinner while the first page loads, then the title, buttons and grid', async () => {
    const server = fakeTableServer({ [TABLE]: sampleRows(2) });
    const release = server.hold();
    render(<TablePanel config={config} api={tableApi} />);

    const panel = screen.getByRole('region', { name: 'Form Submissions' });
    expect(within(panel).getByRole('status').textContent).toBe('Loading Form Submissions…');
    expect(panel.getAttribute('aria-busy')).toBe('true');
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.getByRole('button', { name: 'Export CSV' })).toHaveProperty('disabled', true);
    expect(screen.getByRole('button', { name: 'Add New' })).toBeDefined();

    release();
    expect(await screen.findByRole('table')).toBeDefined();
    expect(screen.queryByRole('status')).toBeNull();
    expect(panel.getAttribute('aria-busy')).toBe('false');
    expect(server.calls).toEqual([{ method: 'GET', table: TABLE, page: 0 }]);
  });

  it('puts Actions first, then every field but rich text, headed by display names', async () => {
    renderPanel(sampleRows(1));
    await screen.findByRole('table');
    expect(gridText()[0]).toEqual([
      'Actions',
      'ID',
      'Name',
      'Email',
      'Message',
      'Purchase Intent',
      'Email Sent',
      'Email Sent At',
      'Created At',
      'Updated At',
    ]);
    expect(screen.getByRole('button', { name: 'Edit row 1' })).toBeDefined();
    expect(screen.getByRole('button', { name: 'Delete row 1' })).toBeDefined();
  });

  it('renders cells: N/A when empty, Yes/No, locale date-times, clamped text', async () => {
    const long = 'A long message '.repeat(20).trim();
    renderPanel([
      {
        id: 12,
        name: 'Ada',
        email: '',
        message: long,
        purchase_intent: true,
        email_sent: false,
        email_sent_at: null,
        notes: '<p>Owner only</p>',
        created_at: '2025-05-01T09:30:00Z',
        updated_at: '2025-05-02T10:45:00Z',
      },
    ]);
    await screen.findByRole('table');
    expect(gridText()[1]).toEqual([
      '',
      '12',
      'Ada',
      'N/A',
      long,
      'Yes',
      'No',
      'N/A',
      new Date('2025-05-01T09:30:00Z').toLocaleString(),
      new Date('2025-05-02T10:45:00Z').toLocaleString(),
    ]);
    expect(screen.queryByText('Owner only')).toBeNull();

    const message = screen.getByText(long);
    expect(message.className).toContain('line-clamp-2');
    expect(message.getAttribute('title')).toBe(long);
    expect(screen.getByText('Ada').className).toContain('line-clamp-2');
    expect(screen.getByText('12').className).not.toContain('line-clamp-2');
  });

  it('pages ten rows at a time, refetching each page, with previous/next disabled at the ends', async () => {
    const { server } = renderPanel(sampleRows(23));
    await screen.findByRole('table');
    const previous = screen.getByRole('button', { name: 'Previous page' });
    const next = screen.getByRole('button', { name: 'Next page' });

    expect(footer()).toBe('Page 1 of 3 (23 items)');
    expect(gridText()).toHaveLength(11);
    expect(gridText()[1]![1]).toBe('23');
    expect(previous).toHaveProperty('disabled', true);
    expect(next).toHaveProperty('disabled', false);

    fireEvent.click(next);
    await waitFor(() => expect(gridText()[1]![1]).toBe('13'));
    expect(footer()).toBe('Page 2 of 3 (23 items)');
    expect(previous).toHaveProperty('disabled', false);

    fireEvent.click(next);
    await waitFor(() => expect(gridText()[1]![1]).toBe('3'));
    expect(footer()).toBe('Page 3 of 3 (23 items)');
    expect(gridText()).toHaveLength(4);
    expect(next).toHaveProperty('disabled', true);

    fireEvent.click(previous);
    await waitFor(() => expect(footer()).toBe('Page 2 of 3 (23 items)'));
    expect(server.calls.map((call) => call.page)).toEqual([0, 1, 2, 1]);
  });

  it('shows no footer and an empty grid for a table without rows', async () => {
    renderPanel([]);
    expect(await screen.findByText('No records yet.')).toBeDefined();
    expect(footer()).toBeUndefined();
    expect(screen.queryByRole('button', { name: 'Next page' })).toBeNull();
  });

  it("says in a red box when the page cannot be fetched, with the server's message", async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const server = fakeTableServer({ [TABLE]: sampleRows(2) });
    server.failNext('GET', { status: 503, message: 'The database is resting.' });
    render(<TablePanel config={config} api={tableApi} />);

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(
      'Failed to fetch data for Form Submissions: The database is resting.',
    );
    expect(alert.className).toContain('bg-red-50');
    expect(screen.queryByRole('table')).toBeNull();
    expect(errors).toHaveBeenCalledTimes(1);
    expect(errors.mock.calls[0]![0]).toBe('Failed to fetch data for Form Submissions');

    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('table')).toBeDefined();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('falls back to a general message when the error answer is not JSON', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const server = fakeTableServer({ [TABLE]: [] });
    server.failNext('GET', { status: 502, text: '<html>Bad gateway</html>' });
    render(<TablePanel config={config} api={tableApi} />);
    expect((await screen.findByRole('alert')).textContent).toContain(
      'Failed to fetch data for Form Submissions: Something went wrong. Please check your connection and try again.',
    );
  });

  it('tells the admin area when the session has ended (401)', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const server = fakeTableServer({ [TABLE]: [] });
    server.failNext('GET', { status: 401, message: 'Sign in to continue.' });
    const onUnauthorized = vi.fn();
    stopWatching = onSessionEnded(onUnauthorized);
    render(<TablePanel config={config} api={tableApi} />);
    await screen.findByRole('alert');
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });
});

describe('deleting a row (SPEC.md §7)', () => {
  it('does nothing when the confirmation is declined', async () => {
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(false);
    const { server } = renderPanel(sampleRows(3));
    fireEvent.click(await screen.findByRole('button', { name: 'Delete row 2' }));
    expect(confirm).toHaveBeenCalledWith('Are you sure you want to delete this item?');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(server.calls.filter((call) => call.method !== 'GET')).toEqual([]);
    expect(server.rows(TABLE)).toHaveLength(3);
  });

  it('deletes after confirmation and refetches the page', async () => {
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    const { server } = renderPanel(sampleRows(3));
    fireEvent.click(await screen.findByRole('button', { name: 'Delete row 2' }));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Edit row 2' })).toBeNull());
    expect(server.calls.map(({ method, id }) => [method, id])).toEqual([
      ['GET', undefined],
      ['DELETE', 2],
      ['GET', undefined],
    ]);
    expect(footer()).toBe('Page 1 of 1 (2 items)');
  });

  it("alerts the server's message when the delete fails, and keeps the row", async () => {
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => {});
    const { server } = renderPanel(sampleRows(3));
    server.failNext('DELETE', { status: 404, message: 'That record no longer exists.' });
    fireEvent.click(await screen.findByRole('button', { name: 'Delete row 2' }));
    await waitFor(() =>
      expect(alert).toHaveBeenCalledWith('Error deleting item: That record no longer exists.'),
    );
    expect(screen.getByRole('button', { name: 'Edit row 2' })).toBeDefined();
    expect(server.calls.filter((call) => call.method === 'GET')).toHaveLength(1);
  });

  it('goes back a page when the last row of the last page is deleted', async () => {
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    const { server } = renderPanel(sampleRows(11));
    fireEvent.click(await screen.findByRole('button', { name: 'Next page' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Delete row 1' }));
    await waitFor(() => expect(footer()).toBe('Page 1 of 1 (10 items)'));
    // The footer can show page 1 a render before the request for it goes out.
    await waitFor(() =>
      expect(server.calls.map(({ method, page }) => [method, page])).toEqual([
        ['GET', 0],
        ['GET', 1],
        ['DELETE', undefined],
        ['GET', 1],
        ['GET', 0],
      ]),
    );
  });
});

describe('CSV export (SPEC.md §3)', () => {
  it('downloads the loaded page as {table name}.csv through a Blob URL, then revokes it', async () => {
    const blobs: Blob[] = [];
    const createObjectURL = vi.fn((blob: Blob) => {
      blobs.push(blob);
      return 'blob:csv-1';
    });
    const revokeObjectURL = vi.fn();
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL }));
    const clicked: { href: string; download: string; attached: boolean }[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      clicked.push({ href: this.href, download: this.download, attached: this.isConnected });
    });

    renderPanel(sampleRows(12));
    await screen.findByRole('table');
    fireEvent.click(screen.getByRole('button', { name: 'Export CSV' }));

    expect(clicked).toEqual([
      { href: 'blob:csv-1', download: 'Form_Submissions.csv', attached: true },
    ]);
    expect(blobs[0]!.type).toBe('text/csv;charset=utf-8');
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(
      await blobs[0]!.arrayBuffer(),
    );
    const lines = text.split('\r\n');
    expect(lines[0]).toBe(
      '\uFEFFName,Email,Message,Purchase Intent,Email Sent,Email Sent At,Notes,Created At,Updated At',
    );
    // Only the ten rows of the page on screen, newest first.
    expect(lines).toHaveLength(11);
    expect(lines[1]).toBe(
      'Visitor 12,visitor12@example.com,Message 12,Yes,Yes,2025-05-01T09:12:00.000Z,,2025-05-01T09:12:00.000Z,2025-05-01T09:12:00.000Z',
    );
    expect(document.querySelector('a[download]')).toBeNull();
    await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
    expect(revokeObjectURL).toHaveBeenCalledWith('blob:csv-1');
  });
});
