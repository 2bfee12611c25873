import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { tableConfigSchema } from '../../../shared/admin/table-config';
import formSubmissions from '../../../shared/table-configurations/form-submissions.json';
import { HashRouter } from '../../routing/router';
import { fakeTableServer, sampleRows } from '../../../../tests/support/client/fake-tables';
import { tableApi } from './table-api-client';
import { bulkDeleteConfirmation, TablePanel } from './table-panel';

const config = tableConfigSchema.parse(formSubmissions);
const TABLE = config.db_table_name;

function renderPanel(count = 25) {
  const server = fakeTableServer({ [TABLE]: sampleRows(count) });
  render(
    <HashRouter>
      <TablePanel config={config} api={tableApi} />
    </HashRouter>,
  );
  return server;
}

const lists = (server: ReturnType<typeof fakeTableServer>) =>
  server.calls.filter((call) => call.method === 'GET');
const names = () =>
  within(screen.getByRole('table'))
    .getAllByRole('row')
    .slice(1)
    .map((row) => row.querySelectorAll('td')[2]?.textContent);
const hashParams = () => new URLSearchParams(window.location.hash.split('?')[1] ?? '');

beforeEach(() => {
  window.location.hash = '#/admin';
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('table panel search, sort, filters and bulk delete (DESIGN.md "Admin tools")', () => {
  it('searches after typing pauses, keeps the search in the address, and counts the matches', async () => {
    const server = renderPanel();
    await screen.findByRole('table');
    const box = screen.getByRole('searchbox', { name: 'Search name, email, message' });
    fireEvent.change(box, { target: { value: 'visitor2' } });
    fireEvent.change(box, { target: { value: 'visitor2@' } });
    await waitFor(() => expect(hashParams().get(`${TABLE}.q`)).toBe('visitor2@'));
    await waitFor(() => expect(names()).toEqual(['Visitor 2']));
    // One fetch for the first page, one for the search: typing does not fetch every key.
    expect(lists(server).map((call) => call.search)).toEqual([undefined, 'q=visitor2%40']);
    expect(screen.getByText('1 matching row')).toBeDefined();
    expect(screen.getByText('Page 1 of 1 (1 items)')).toBeDefined();
    const exportAll = screen.getByRole('link', { name: 'Export all' });
    expect(exportAll.getAttribute('href')).toBe(`/api/admin/tables/${TABLE}/export?q=visitor2%40`);

    fireEvent.change(box, { target: { value: 'nobody' } });
    expect(await screen.findByText('No rows match this search.')).toBeDefined();
    fireEvent.click(screen.getByRole('button', { name: 'Clear search and filters' }));
    await waitFor(() => expect(names()).toHaveLength(10));
    expect((box as HTMLInputElement).value).toBe('');
    expect(hashParams().has(`${TABLE}.q`)).toBe(false);
  });

  it('starts from the search in the address, as after a reload', async () => {
    window.location.hash = `#/admin?${TABLE}.q=Visitor+7&${TABLE}.sort=name&${TABLE}.order=desc`;
    const server = renderPanel();
    await screen.findByRole('table');
    expect(
      (screen.getByRole('searchbox', { name: 'Search name, email, message' }) as HTMLInputElement)
        .value,
    ).toBe('Visitor 7');
    expect(lists(server)[0]!.search).toBe('q=Visitor+7&sort=name&order=desc');
    expect(names()).toEqual(['Visitor 7']);
    expect(screen.getByRole('columnheader', { name: /Name/ }).getAttribute('aria-sort')).toBe(
      'descending',
    );
  });

  it('sorts by a clicked header: ascending, descending, then newest first again', async () => {
    const server = renderPanel(12);
    await screen.findByRole('table');
    const header = () => screen.getByRole('columnheader', { name: /^Name/ });
    expect(header().getAttribute('aria-sort')).toBeNull();
    expect(screen.getByRole('columnheader', { name: /^ID/ }).getAttribute('aria-sort')).toBe(
      'descending',
    );
    fireEvent.click(within(header()).getByRole('button'));
    await waitFor(() => expect(header().getAttribute('aria-sort')).toBe('ascending'));
    await waitFor(() => expect(names()[0]).toBe('Visitor 1'));
    expect(names()[1]).toBe('Visitor 10');
    fireEvent.click(within(header()).getByRole('button'));
    await waitFor(() => expect(header().getAttribute('aria-sort')).toBe('descending'));
    await waitFor(() => expect(names()[0]).toBe('Visitor 9'));
    fireEvent.click(within(header()).getByRole('button'));
    await waitFor(() => expect(header().getAttribute('aria-sort')).toBeNull());
    expect(lists(server).map((call) => call.search)).toEqual([
      undefined,
      'sort=name&order=asc',
      'sort=name&order=desc',
      undefined,
    ]);
  });

  it('filters on email not sent, purchase intent and a range of creation days', async () => {
    const server = renderPanel();
    await screen.findByRole('table');
    fireEvent.click(screen.getByRole('checkbox', { name: 'Email not sent' }));
    await waitFor(() => expect(screen.getByText('0 matching rows')).toBeDefined());
    fireEvent.click(screen.getByRole('checkbox', { name: 'Email not sent' }));
    await waitFor(() => expect(hashParams().has(`${TABLE}.filter`)).toBe(false));
    fireEvent.change(screen.getByRole('combobox', { name: 'Purchase intent' }), {
      target: { value: 'true' },
    });
    await waitFor(() => expect(screen.getByText('12 matching rows')).toBeDefined());
    fireEvent.change(screen.getByLabelText('Created from'), { target: { value: '2025-05-01' } });
    await waitFor(() => expect(hashParams().get(`${TABLE}.filter`)).toContain('2025-05-01'));
    fireEvent.change(screen.getByLabelText('to'), { target: { value: '2025-05-02' } });
    await waitFor(() =>
      expect(JSON.parse(hashParams().get(`${TABLE}.filter`)!)).toEqual({
        purchase_intent: true,
        created_at: { from: '2025-05-01', to: '2025-05-02' },
      }),
    );
    const searches = lists(server).map((call) => new URLSearchParams(call.search));
    expect(searches.at(-1)!.get('filter')).toBe(
      '{"purchase_intent":true,"created_at":{"from":"2025-05-01","to":"2025-05-02"}}',
    );
    expect(searches[1]!.get('filter')).toBe('{"email_sent":false}');
  });

  it('ticks rows or the whole page and deletes them after one confirm naming the count', async () => {
    const server = renderPanel(25);
    await screen.findByRole('table');
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(true);
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select row 25' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select row 24' }));
    expect(screen.getByText('2 rows selected')).toBeDefined();
    const all = screen.getByRole('checkbox', { name: 'Select every row on this page' });
    expect((all as HTMLInputElement).indeterminate).toBe(true);
    fireEvent.click(all);
    expect(screen.getByText('10 rows selected')).toBeDefined();
    fireEvent.click(screen.getByRole('button', { name: 'Delete selected' }));
    expect(confirm).toHaveBeenCalledWith(bulkDeleteConfirmation(10));
    expect(bulkDeleteConfirmation(10)).toBe('Delete 10 rows? You can restore them from Activity.');
    await waitFor(() => expect(server.rows(TABLE)).toHaveLength(15));
    await waitFor(() => expect(names()[0]).toBe('Visitor 15'));
    expect(screen.queryByText(/rows? selected/)).toBeNull();
    expect(server.calls.find((call) => call.method === 'POST')!.body).toEqual({
      ids: [25, 24, 23, 22, 21, 20, 19, 18, 17, 16],
    });
  });

  it('keeps the rows when the bulk confirm is declined, and alerts a refusal', async () => {
    const server = renderPanel(3);
    await screen.findByRole('table');
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(false);
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => {});
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select row 1' }));
    fireEvent.click(screen.getByRole('button', { name: 'Delete selected' }));
    expect(confirm).toHaveBeenCalledWith('Delete 1 row? You can restore them from Activity.');
    expect(server.calls.some((call) => call.method === 'POST')).toBe(false);
    confirm.mockReturnValue(true);
    server.failNext('POST', { status: 400, message: 'Choose at least one row to delete.' });
    fireEvent.click(screen.getByRole('button', { name: 'Delete selected' }));
    await waitFor(() =>
      expect(alert).toHaveBeenCalledWith(
        'Error deleting items: Choose at least one row to delete.',
      ),
    );
    expect(server.rows(TABLE)).toHaveLength(3);
  });
});
