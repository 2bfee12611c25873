import { fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter, useLocation, useNavigate, useNavigationType } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { paths } from '../../shared/paths';
import { product } from '../../shared/product';
import { fakeAuthServer, signedInAs, signedOut } from '../testing/fake-auth-server';
import { AppRoutes } from './app-routes';

function LocationProbe() {
  const location = useLocation();
  const navigationType = useNavigationType();
  const navigate = useNavigate();
  return (
    <>
      <output data-testid="pathname">{location.pathname}</output>
      <output data-testid="navigation-type">{navigationType}</output>
      <button type="button" onClick={() => void navigate(-1)}>
        Go back
      </button>
    </>
  );
}

function renderAt(entries: string[]) {
  return render(
    <MemoryRouter initialEntries={entries} initialIndex={entries.length - 1}>
      <AppRoutes />
      <LocationProbe />
    </MemoryRouter>,
  );
}

const homeHeading = { level: 1, name: new RegExp(product.name) } as const;

describe('AppRoutes', () => {
  beforeEach(() => {
    fakeAuthServer(signedOut);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('redirects an unknown path to home, replacing the history entry', async () => {
    renderAt([paths.privacyPolicy, '/no-such-page']);

    expect(await screen.findByRole('heading', homeHeading)).toBeDefined();
    expect(screen.getByTestId('pathname').textContent).toBe(paths.home);
    expect(screen.getByTestId('navigation-type').textContent).toBe('REPLACE');

    // Had the unknown entry been kept, going back would land on it and redirect home again.
    fireEvent.click(screen.getByRole('button', { name: 'Go back' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeDefined();
    expect(screen.getByTestId('pathname').textContent).toBe(paths.privacyPolicy);
  });

  it.each([
    [paths.home, new RegExp(`${product.name}`)],
    [paths.thankYou, 'Thank You for Your Purchase!'],
    [paths.privacyPolicy, 'Privacy Policy'],
    [paths.refundPolicy, 'Refund Policy'],
    [paths.termsOfService, 'Terms of Service'],
    [paths.contactUs, 'Get in Touch'],
    [paths.login, 'Welcome Back'],
    [paths.adminLogin, 'Admin Access'],
  ])('renders %s with one main landmark and the h1 %s', async (path, name) => {
    renderAt([path]);

    expect(await screen.findByRole('heading', { level: 1, name })).toBeDefined();
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    expect(screen.getAllByRole('main')).toHaveLength(1);
    expect(screen.getByTestId('pathname').textContent).toBe(path);
  });

  it('sends a signed-out visitor from /admin to /admin/login, replacing the history entry', async () => {
    renderAt([paths.home, paths.admin]);

    expect(await screen.findByRole('heading', { level: 1, name: 'Admin Access' })).toBeDefined();
    expect(screen.getByTestId('pathname').textContent).toBe(paths.adminLogin);
    expect(screen.getByTestId('navigation-type').textContent).toBe('REPLACE');
    expect(screen.queryByRole('heading', { name: 'Tables' })).toBeNull();
  });

  it('renders the admin table page as the index child of the admin layout', async () => {
    fakeAuthServer(signedInAs('owner@example.com', true));
    renderAt([paths.admin]);

    const tables = await screen.findByRole('heading', { level: 2, name: 'Tables' });
    const main = screen.getByRole('main');
    expect(main.contains(tables)).toBe(true);
    // SPEC.md §2: 'Admin Dashboard' is the layout's header; child pages render in main.
    const header = screen.getByRole('banner');
    expect(
      header.contains(screen.getByRole('heading', { level: 1, name: 'Admin Dashboard' })),
    ).toBe(true);
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    expect(screen.getAllByRole('main')).toHaveLength(1);
  });

  it('links the home footer to the four information pages', () => {
    renderAt([paths.home]);

    const footer = screen.getByRole('navigation', { name: 'Footer' });
    const hrefs = Array.from(footer.querySelectorAll('a'), (a) => a.getAttribute('href'));
    expect(hrefs).toEqual([
      paths.contactUs,
      paths.privacyPolicy,
      paths.refundPolicy,
      paths.termsOfService,
    ]);
  });
});
