import { vi } from 'vitest';
import { authApi } from '../../shared/auth';
import { session } from '../features/auth/session-store';

type Answer = { status: number; body: unknown };

/**
 * Answers the browser's auth calls in jsdom, where no server runs. The real server's answers
 * are tested in src/server/auth and end to end; this only drives the screens' states.
 */
export function fakeAuthServer(routes: Partial<Record<string, Answer | (() => Answer)>>) {
  session.reset();
  const calls: { url: string; body: unknown }[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    calls.push({ url, body: init?.body ? JSON.parse(String(init.body)) : undefined });
    const route = routes[url];
    const answer = typeof route === 'function' ? route() : route;
    if (!answer)
      return new Response(JSON.stringify({ error: 'Not Found', message: url }), { status: 404 });
    return new Response(JSON.stringify(answer.body), {
      status: answer.status,
      headers: { 'content-type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
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
