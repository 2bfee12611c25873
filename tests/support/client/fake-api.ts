import { vi, type Mock } from 'vitest';

/** An answer: a status with a JSON body (none for a 204), a non-JSON page, or no connection. */
export type FakeReply =
  { status: number; body?: unknown } | { status: number; text: string } | 'network-error';

export type FakeRequest = {
  method: string;
  /** The path without its query, as the shared path constants spell it. */
  path: string;
  /** The query. */
  params: URLSearchParams;
  /** The parsed JSON body, if any. */
  body: unknown;
  /** The URL as the client asked for it. */
  url: string;
};

/** What a route answers: always the same, or per request (undefined: not found). */
export type FakeRoute =
  | FakeReply
  | ((
      request: FakeRequest,
    ) => FakeReply | Response | undefined | Promise<FakeReply | Response | undefined>);

export type FakeApi = {
  /** The stubbed fetch, for tests that look at its calls directly. */
  fetch: Mock<(input: RequestInfo | URL, init?: RequestInit) => Promise<Response>>;
  /** Every request, as `METHOD url`. */
  calls: string[];
  /** Every request, parsed. */
  requests: FakeRequest[];
  /** More routes: keys are paths from src/shared (a key ending in `/*` is a prefix). */
  route(routes: Record<string, FakeRoute>): FakeApi;
  /** The next request, whatever its path, gets `reply` (or waits for the returned promise). */
  replyNext(reply: FakeReply | Promise<FakeReply>): void;
  /** Runs `listener` with each request from now on. */
  observe(listener: (request: FakeRequest) => void): void;
};

let current: FakeApi | undefined;

function respond(reply: FakeReply | Response): Response {
  if (reply instanceof Response) return reply;
  if (reply === 'network-error') throw new TypeError('Failed to fetch');
  if ('text' in reply) {
    return new Response(reply.text, {
      status: reply.status,
      headers: { 'content-type': 'text/html' },
    });
  }
  return new Response(reply.body === undefined ? null : JSON.stringify(reply.body), {
    status: reply.status,
    headers: { 'content-type': 'application/json' },
  });
}

function parseBody(body: BodyInit | null | undefined): unknown {
  if (typeof body !== 'string') return undefined;
  try {
    return JSON.parse(body);
  } catch {
    return body;
  }
}

/**
 * The one fake of the site's HTTP API for browser tests in jsdom, where no server runs: it
 * stubs fetch and answers from routes keyed by the shared path constants (src/shared/paths.ts,
 * src/shared/<capability>/*-api.ts). Calling it again in the same test adds routes to the
 * installed fake. An unknown path is a 404 carrying the path. The real server's answers are
 * tested in src/server and end to end; this only drives the screens' states.
 */
export function fakeApi(routes: Record<string, FakeRoute> = {}): FakeApi {
  if (current && globalThis.fetch === current.fetch) return current.route(routes);
  const table = new Map<string, FakeRoute>();
  const next: (FakeReply | Promise<FakeReply>)[] = [];
  const calls: string[] = [];
  const requests: FakeRequest[] = [];
  const observers: ((request: FakeRequest) => void)[] = [];

  function find(path: string): FakeRoute | undefined {
    if (table.has(path)) return table.get(path);
    let best: [string, FakeRoute] | undefined;
    for (const [key, route] of table) {
      if (!key.endsWith('/*')) continue;
      const prefix = key.slice(0, -1);
      if (path.startsWith(prefix) && (!best || prefix.length > best[0].length)) {
        best = [prefix, route];
      }
    }
    return best?.[1];
  }

  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    const parsed = new URL(url, 'http://localhost');
    const request: FakeRequest = {
      method: init?.method ?? 'GET',
      path: parsed.pathname,
      params: parsed.searchParams,
      body: parseBody(init?.body),
      url,
    };
    calls.push(`${request.method} ${url}`);
    requests.push(request);
    for (const observer of observers) observer(request);
    if (next.length > 0) return respond(await next.shift()!);
    const route = find(request.path);
    const reply = typeof route === 'function' ? await route(request) : route;
    return respond(reply ?? { status: 404, body: { error: 'Not Found', message: url } });
  });

  const api: FakeApi = {
    fetch,
    calls,
    requests,
    route(more) {
      for (const [key, route] of Object.entries(more)) table.set(key, route);
      return api;
    },
    replyNext(reply) {
      next.push(reply);
    },
    observe(listener) {
      observers.push(listener);
    },
  };
  api.route(routes);
  vi.stubGlobal('fetch', fetch);
  current = api;
  return api;
}

/** Forgets the installed fake: the next test's fakeApi() starts with no routes. */
export function resetFakeApi(): void {
  current = undefined;
}

/** The console lines of the analytics module (SPEC.md §7). */
export function watchAnalytics(): string[] {
  const lines: string[] = [];
  vi.spyOn(console, 'info').mockImplementation((line: string) => void lines.push(line));
  return lines;
}
