import { fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { authApi } from '../../shared/auth';
import { paths } from '../../shared/paths';
import { fakeAuthServer } from '../../../tests/support/client/fake-auth';
import { PathSwitch, renderAtPath } from '../../../tests/support/client/hash-route';
import { session } from '../features/auth/session-store';
import { LoginPage, type LoginMode } from './login-page';

function renderLogin(mode: LoginMode) {
  const at = mode === 'admin' ? paths.adminLogin : paths.login;
  return renderAtPath(at, <PathSwitch screens={{ [at]: <LoginPage mode={mode} /> }} />);
}

const sent = { status: 200, body: { success: true } };

async function reachCodeStep(email = 'owner@example.com') {
  fireEvent.change(screen.getByLabelText('Email'), { target: { value: email } });
  fireEvent.click(screen.getByRole('button', { name: 'Send Verification Code' }));
  expect(screen.getByRole('button', { name: 'Sending...' })).toBeDefined();
  return screen.findByPlaceholderText('Enter 6-digit code');
}

describe('LoginPage', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    window.history.replaceState(null, '', '#/');
  });

  it('normal mode: Welcome Back, Sign in to continue, and a Home button', () => {
    fakeAuthServer({});
    renderLogin('normal');
    expect(screen.getByRole('heading', { level: 1, name: 'Welcome Back' })).toBeDefined();
    expect(screen.getByText('Sign in to continue')).toBeDefined();
    expect(screen.getByRole('link', { name: 'Home' }).getAttribute('href')).toBe(`#${paths.home}`);
  });

  it('admin mode: Admin Access, Sign in to access the dashboard, and no Home button', () => {
    fakeAuthServer({});
    renderLogin('admin');
    expect(screen.getByRole('heading', { level: 1, name: 'Admin Access' })).toBeDefined();
    expect(screen.getByText('Sign in to access the dashboard')).toBeDefined();
    expect(screen.queryByRole('link', { name: 'Home' })).toBeNull();
  });

  it('sends the code, says where it went, and takes a code of at most 6 characters', async () => {
    const { calls } = fakeAuthServer({ [authApi.sendCode]: sent });
    renderLogin('admin');
    expect((screen.getByLabelText('Email') as HTMLInputElement).type).toBe('email');
    const codeInput = (await reachCodeStep(' owner@example.com ')) as HTMLInputElement;
    expect(codeInput.maxLength).toBe(6);
    expect(codeInput.required).toBe(true);
    expect(
      screen.getByText('A verification code has been sent to owner@example.com'),
    ).toBeDefined();
    expect(calls[0]).toEqual({
      url: authApi.sendCode,
      body: { email: 'owner@example.com', type: 'sign-in' },
    });
  });

  it.each([
    ['admin', paths.admin],
    ['normal', paths.home],
  ] as const)(
    '%s mode: a verified code signs in and goes to %s, replacing history',
    async (mode, to) => {
      const { calls } = fakeAuthServer({
        [authApi.sendCode]: sent,
        [authApi.signIn]: {
          status: 200,
          body: { user: { email: 'owner@example.com' }, isAdmin: mode === 'admin' },
        },
      });
      const view = renderLogin(mode);
      fireEvent.change(await reachCodeStep(), { target: { value: '123456' } });
      fireEvent.click(screen.getByRole('button', { name: 'Verify and Sign In' }));
      expect(screen.getByRole('button', { name: 'Verifying...' })).toBeDefined();
      expect(await screen.findByText('Elsewhere')).toBeDefined();
      expect(view.pathname()).toBe(to);
      expect(view.addedEntries()).toBe(0);
      expect(calls.at(-1)).toEqual({
        url: authApi.signIn,
        body: { email: 'owner@example.com', otp: '123456' },
      });
      expect(session.get()).toEqual({
        status: 'signed-in',
        email: 'owner@example.com',
        isAdmin: mode === 'admin',
      });
    },
  );

  it("shows the auth service's own message in red when a step fails", async () => {
    fakeAuthServer({
      [authApi.sendCode]: sent,
      [authApi.signIn]: { status: 400, body: { error: 'Bad Request', message: 'Invalid OTP' } },
    });
    const view = renderLogin('admin');
    fireEvent.change(await reachCodeStep(), { target: { value: '000000' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify and Sign In' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('Invalid OTP');
    expect(alert.className).toContain('text-red-700');
    expect(view.pathname()).toBe(paths.adminLogin);
    expect(view.addedEntries()).toBe(0);
  });

  it('shows a refused code request message and stays on the email step', async () => {
    fakeAuthServer({
      [authApi.sendCode]: {
        status: 429,
        body: { error: 'Too Many Requests', message: 'Too many codes were requested.' },
      },
    });
    renderLogin('normal');
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'a@example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send Verification Code' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Too many codes were requested.');
    expect(screen.getByRole('button', { name: 'Send Verification Code' })).toBeDefined();
  });

  it('"Use a different email" returns to step 1 and clears the code, info and error', async () => {
    fakeAuthServer({
      [authApi.sendCode]: sent,
      [authApi.signIn]: { status: 400, body: { error: 'Bad Request', message: 'Invalid OTP' } },
    });
    renderLogin('admin');
    fireEvent.change(await reachCodeStep(), { target: { value: '000000' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify and Sign In' }));
    await screen.findByRole('alert');

    fireEvent.click(screen.getByRole('button', { name: 'Use a different email' }));
    expect(screen.getByLabelText('Email')).toBeDefined();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByText(/A verification code has been sent/)).toBeNull();

    // Back on step 2 the old code is gone.
    const codeInput = (await reachCodeStep()) as HTMLInputElement;
    expect(codeInput.value).toBe('');
  });
});
