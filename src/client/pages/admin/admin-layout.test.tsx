import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { authApi } from '../../../shared/auth';
import { adminNav } from '../../../shared/admin-nav';
import { paths } from '../../../shared/paths';
import { WithOutlet } from '../../routing/router';
import { fakeAuthServer, signedInAs, signedOut } from '../../../../tests/support/client/fake-auth';
import { PathSwitch, renderAtPath } from '../../../../tests/support/client/hash-route';
import { AdminLayout } from './admin-layout';

function renderAdmin() {
  return renderAtPath(
    paths.admin,
    <PathSwitch
      screens={{
        [paths.admin]: (
          <WithOutlet outlet={<p>Admin content</p>}>
            <AdminLayout />
          </WithOutlet>
        ),
        [paths.adminLogin]: <p>Login screen</p>,
      }}
    />,
  );
}

describe('AdminLayout', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    window.history.replaceState(null, '', '#/');
  });

  it('shows a loading state until the session is read, then the admin frame and content', async () => {
    fakeAuthServer(signedInAs('owner@example.com', true));
    renderAdmin();
    expect(screen.getByText('Loading…')).toBeDefined();
    expect(screen.queryByText('Admin content')).toBeNull();

    expect(await screen.findByText('Admin content')).toBeDefined();
    expect(screen.getByRole('heading', { level: 1, name: 'Admin Dashboard' })).toBeDefined();
    expect(screen.getByText('owner@example.com')).toBeDefined();
    expect(screen.getByRole('main').textContent).toContain('Admin content');
    const footer = screen.getByRole('contentinfo');
    expect(footer.textContent).toBe('Built with care for Soul Reset');
    expect(footer.querySelector('a')?.getAttribute('href')).toBe(`#${paths.home}`);
  });

  it('links every admin page for an admin, marking the current one', async () => {
    fakeAuthServer(signedInAs('owner@example.com', true));
    renderAdmin();
    const nav = await screen.findByRole('navigation', { name: 'Admin pages' });
    const links = [...nav.querySelectorAll('a')];
    expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual(
      adminNav.map(({ label, path }) => [label, `#${path}`]),
    );
    expect(links.filter((link) => link.getAttribute('aria-current') === 'page')).toEqual([
      links[adminNav.findIndex(({ path }) => path === paths.admin)],
    ]);
  });

  it('shows no admin navigation to a signed-in non-admin', async () => {
    fakeAuthServer(signedInAs('visitor@example.com', false));
    renderAdmin();
    await screen.findByRole('heading', { name: 'No access' });
    expect(screen.queryByRole('navigation', { name: 'Admin pages' })).toBeNull();
  });

  it('sends a signed-out visitor to /admin/login, replacing history', async () => {
    fakeAuthServer(signedOut);
    const view = renderAdmin();
    expect(await screen.findByText('Login screen')).toBeDefined();
    expect(view.pathname()).toBe(paths.adminLogin);
    expect(view.addedEntries()).toBe(0);
  });

  it('tells a signed-in non-admin there is no access, without the content, and offers Logout', async () => {
    fakeAuthServer(signedInAs('visitor@example.com', false));
    renderAdmin();
    expect(await screen.findByRole('heading', { name: 'No access' })).toBeDefined();
    expect(screen.getByText(/visitor@example\.com does not have access/)).toBeDefined();
    expect(screen.queryByText('Admin content')).toBeNull();
    expect(screen.getByRole('button', { name: 'Logout' })).toBeDefined();
  });

  it('logs out on the server, then goes to /admin/login replacing history', async () => {
    const { calls } = fakeAuthServer(signedInAs('owner@example.com', true));
    const view = renderAdmin();
    fireEvent.click(await screen.findByRole('button', { name: 'Logout' }));
    expect(await screen.findByText('Login screen')).toBeDefined();
    expect(calls.some((call) => call.url === authApi.signOut)).toBe(true);
    expect(view.pathname()).toBe(paths.adminLogin);
    expect(view.addedEntries()).toBe(0);
  });

  it('stays put and says why when logout fails', async () => {
    fakeAuthServer({
      ...signedInAs('owner@example.com', true),
      [authApi.signOut]: { status: 503, body: { error: 'x', message: 'Try again soon.' } },
    });
    renderAdmin();
    fireEvent.click(await screen.findByRole('button', { name: 'Logout' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('Try again soon.'));
    expect(screen.getByText('Admin content')).toBeDefined();
  });
});
