import { render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tableConfigSchema, type TableConfig } from '../../../shared/admin/table-config';
import { paths } from '../../../shared/paths';
import refundInquiries from '../../../shared/table-configurations/refund-inquiries.json';
import { WithOutlet } from '../../routing/router';
import { fakeAuthServer, signedInAs } from '../../../../tests/support/client/fake-auth';
import { fakeTableServer, sampleRows } from '../../../../tests/support/client/fake-tables';
import { PathSwitch, renderAtPath } from '../../../../tests/support/client/hash-route';
import { AdminLayout } from './admin-layout';
import { AdminTablesPage } from './admin-tables-page';

const allTables = {
  contact_us_submissions: [],
  form_submissions: sampleRows(3),
  free_product_gift_submissions: [],
  refund_inquiries: [],
  soul_reset_submissions: [],
  terms_of_service_feedback: [],
};

afterEach(() => {
  vi.unstubAllGlobals();
  window.history.replaceState(null, '', '#/');
});

describe('admin table page (SPEC.md §2 "Admin table page")', () => {
  it('shows a spinner with "Loading Configurations..." while the configurations load', () => {
    render(<AdminTablesPage loadConfigurations={() => new Promise<TableConfig[]>(() => {})} />);
    const status = screen.getByRole('status');
    expect(status.textContent).toBe('Loading Configurations...');
    expect(status.querySelector('svg.animate-spin')).not.toBeNull();
  });

  it('says where to add configurations when there are none', async () => {
    render(<AdminTablesPage loadConfigurations={async () => []} />);
    expect(
      await screen.findByText(
        'No table configurations found in src/shared/table-configurations. Please add at least one JSON configuration file.',
      ),
    ).toBeDefined();
    expect(screen.queryAllByRole('heading', { level: 3 })).toEqual([]);
  });

  it('says so when the configurations cannot be loaded', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const failure = new Error('Invalid table configuration broken.json');
    render(<AdminTablesPage loadConfigurations={() => Promise.reject(failure)} />);
    expect((await screen.findByRole('alert')).textContent).toBe(
      'An error occurred while loading table configurations.',
    );
    expect(errors.mock.calls).toEqual([['Could not load the table configurations', failure]]);
  });

  it('stacks one panel per bundled configuration, in file-name order', async () => {
    const server = fakeTableServer(allTables);
    render(<AdminTablesPage />);
    await waitFor(() => expect(screen.getAllByRole('heading', { level: 3 })).toHaveLength(6));
    expect(screen.getAllByRole('heading', { level: 3 }).map((title) => title.textContent)).toEqual([
      'Contact Us Submissions',
      'Form Submissions',
      'Free Product Gift Submissions',
      'Refund Inquiries',
      'Soul Reset Submissions',
      'Terms of Service Feedback',
    ]);
    const forms = screen.getByRole('region', { name: 'Form Submissions' });
    expect(await within(forms).findByText('Page 1 of 1 (3 items)')).toBeDefined();
    await waitFor(() => expect(screen.queryAllByText('No records yet.')).toHaveLength(5));
    expect(new Set(server.calls.map((call) => call.table))).toEqual(
      new Set(Object.keys(allTables)),
    );
  });

  it('renders the panels of the configurations it is given', async () => {
    fakeTableServer({ refund_inquiries: [] });
    const config = tableConfigSchema.parse(refundInquiries);
    render(<AdminTablesPage loadConfigurations={async () => [config]} />);
    expect(await screen.findByRole('region', { name: 'Refund Inquiries' })).toBeDefined();
    expect(await screen.findByText('No records yet.')).toBeDefined();
  });

  it('sends the owner back to /admin/login when the session has ended (401)', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    fakeAuthServer(signedInAs('owner@example.com', true));
    const server = fakeTableServer({ refund_inquiries: [] });
    server.failNext('GET', { status: 401, message: 'Sign in to continue.' });
    const config = tableConfigSchema.parse(refundInquiries);
    const view = renderAtPath(
      paths.admin,
      <PathSwitch
        screens={{
          [paths.admin]: (
            <WithOutlet outlet={<AdminTablesPage loadConfigurations={async () => [config]} />}>
              <AdminLayout />
            </WithOutlet>
          ),
          [paths.adminLogin]: <p>Login screen</p>,
        }}
      />,
    );
    expect(await screen.findByText('Login screen')).toBeDefined();
    expect(view.pathname()).toBe(paths.adminLogin);
    expect(view.addedEntries()).toBe(0);
  });
});
