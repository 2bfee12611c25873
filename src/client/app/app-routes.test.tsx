import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { authApi } from '../../shared/auth';
import { paths } from '../../shared/paths';
import { publicConfigDefaults } from '../../shared/public-config-defaults';
import { fakeAuthServer, signedInAs, signedOut } from '../../../tests/support/client/fake-auth';
import { fakeTableServer } from '../../../tests/support/client/fake-tables';
import { renderAtPath } from '../../../tests/support/client/hash-route';
import { AppRoutes } from './app-routes';
import { HashRouter, StaticRouter } from '../routing/router';

const { product } = publicConfigDefaults.store;

const homeHeading = { level: 1, name: new RegExp(product.name) } as const;

/** Waits for the router to follow a browser-side hash change (hashchange is async). */
async function goTo(hash: string) {
  await act(async () => {
    window.location.hash = hash;
    await new Promise((resolve) => window.addEventListener('hashchange', resolve, { once: true }));
  });
}

describe('AppRoutes', () => {
  beforeEach(() => {
    fakeAuthServer(signedOut);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    window.history.replaceState(null, '', '#/');
  });

  it('redirects an unknown path to home, replacing the history entry', async () => {
    window.history.replaceState(null, '', `#${paths.privacyPolicy}`);
    render(
      <HashRouter>
        <AppRoutes />
      </HashRouter>,
    );
    expect(await screen.findByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeDefined();
    const entries = window.history.length;

    await goTo('#/no-such-page');

    expect(await screen.findByRole('heading', homeHeading)).toBeDefined();
    expect(window.location.hash).toBe('#/');
    // The unknown entry was replaced by home rather than followed by a new one.
    expect(window.history.length).toBe(entries + 1);

    await act(async () => {
      window.history.back();
      await new Promise((resolve) =>
        window.addEventListener('hashchange', resolve, { once: true }),
      );
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeDefined();
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
    [paths.downloadLink, 'This download link is not valid'],
  ])('renders %s with one main landmark and the h1 %s', async (path, name) => {
    render(
      <StaticRouter location={path}>
        <AppRoutes />
      </StaticRouter>,
    );

    expect(await screen.findByRole('heading', { level: 1, name })).toBeDefined();
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    expect(screen.getAllByRole('main')).toHaveLength(1);
  });

  it('sends a signed-out visitor from /admin to /admin/login, replacing the history entry', async () => {
    window.history.replaceState(null, '', `#${paths.home}`);
    render(
      <HashRouter>
        <AppRoutes />
      </HashRouter>,
    );
    await screen.findByRole('heading', homeHeading);

    await goTo(`#${paths.admin}`);

    expect(await screen.findByRole('heading', { level: 1, name: 'Admin Access' })).toBeDefined();
    expect(window.location.hash).toBe(`#${paths.adminLogin}`);
    expect(screen.queryByRole('heading', { name: 'Tables' })).toBeNull();
    // The /admin entry was replaced by the login page: going back lands on home, not /admin.
    await act(async () => {
      window.history.back();
      await new Promise((resolve) =>
        window.addEventListener('hashchange', resolve, { once: true }),
      );
    });
    expect(window.location.hash).toBe(`#${paths.home}`);
  });

  it('renders the admin table page as the index child of the admin layout', async () => {
    fakeAuthServer(signedInAs('owner@example.com', true));
    fakeTableServer({
      contact_us_submissions: [],
      form_submissions: [],
      free_product_gift_submissions: [],
      refund_inquiries: [],
      soul_reset_submissions: [],
      terms_of_service_feedback: [],
    });
    render(
      <StaticRouter location={paths.admin}>
        <AppRoutes />
      </StaticRouter>,
    );

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
    // Each table's panel loads inside main.
    await waitFor(() => expect(screen.getAllByText('No records yet.')).toHaveLength(6));
    expect(main.contains(screen.getByRole('heading', { level: 3, name: 'Refund Inquiries' }))).toBe(
      true,
    );
  });

  it('links the home footer to the four information pages', () => {
    render(
      <StaticRouter location={paths.home}>
        <AppRoutes />
      </StaticRouter>,
    );

    const footer = screen.getByRole('navigation', { name: 'Footer' });
    const hrefs = Array.from(footer.querySelectorAll('a'), (a) => a.getAttribute('href'));
    expect(hrefs).toEqual([
      `#${paths.contactUs}`,
      `#${paths.privacyPolicy}`,
      `#${paths.refundPolicy}`,
      `#${paths.termsOfService}`,
    ]);
  });

  // The login screen across its two modes (it was in login-page.test.tsx).
  it('starts at the email step when the visitor moves from one mode to the other', async () => {
    fakeAuthServer({ [authApi.sendCode]: { status: 200, body: { success: true } } });
    renderAtPath(paths.login, <AppRoutes />);
    await screen.findByRole('heading', { level: 1, name: 'Welcome Back' });
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'owner@example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send Verification Code' }));
    await screen.findByPlaceholderText('Enter 6-digit code');
    await act(async () => {
      window.location.hash = `#${paths.adminLogin}`;
      await new Promise((resolve) =>
        window.addEventListener('hashchange', resolve, { once: true }),
      );
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Admin Access' })).toBeDefined();
    expect(screen.getByLabelText('Email')).toBeDefined();
    expect(screen.queryByText(/A verification code has been sent/)).toBeNull();
  });
});
