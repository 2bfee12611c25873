import { authApi } from '../../../src/shared/auth';
import { session } from '../../../src/client/features/auth/session-store';
import { fakeApi, type FakeRoute } from './fake-api';

/**
 * The auth routes (shared/auth.ts) on the fake API, with the session store starting over at
 * "loading". Returns each request's URL and parsed body.
 */
export function fakeAuthServer(routes: Record<string, FakeRoute>) {
  session.reset();
  const calls: { url: string; body: unknown }[] = [];
  fakeApi(routes).observe(({ url, body }) => calls.push({ url, body }));
  return { calls };
}

export const signedOut = {
  [authApi.session]: { status: 200, body: null },
};

export function signedInAs(email: string, admin: boolean) {
  return {
    [authApi.session]: {
      status: 200,
      body: { user: { email }, isAdmin: admin, expiresAt: '2030-01-01T00:00:00.000Z' },
    },
    [authApi.signOut]: { status: 200, body: { success: true } },
  };
}
