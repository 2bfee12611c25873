import { vi } from 'vitest';

export type FakeReply = { status: number; body?: unknown } | 'network-error';

/**
 * Stubs fetch with `answer`, called with each request's method, path and parsed JSON body;
 * returns the requests made, as `METHOD path`.
 */
export function fakeOrderServer(
  answer: (request: { method: string; path: string; body: unknown }) => FakeReply,
) {
  const calls: string[] = [];
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    const method = init?.method ?? 'GET';
    calls.push(`${method} ${url}`);
    const body: unknown = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    const reply = answer({ method, path: url, body });
    if (reply === 'network-error') throw new TypeError('Failed to fetch');
    return new Response(reply.body === undefined ? null : JSON.stringify(reply.body), {
      status: reply.status,
      headers: { 'content-type': 'application/json' },
    });
  });
  return calls;
}

/** The console lines of the analytics module (SPEC.md §7). */
export function watchAnalytics(): string[] {
  const lines: string[] = [];
  vi.spyOn(console, 'info').mockImplementation((line: string) => void lines.push(line));
  return lines;
}
