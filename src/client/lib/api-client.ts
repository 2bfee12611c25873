import type { ApiError } from '../../shared/auth';

/** A refused or failed request, carrying the server's own message (shown to the user as is). */
export class RequestError extends Error {
  constructor(
    /** HTTP status; 0 when the server could not be reached. */
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'RequestError';
  }
}

const UNREACHABLE_MESSAGE = 'Something went wrong. Please check your connection and try again.';

/**
 * Calls the site's own JSON API with the session cookie. Resolves with the parsed body (null
 * when there is none, as for a 204); rejects with a RequestError carrying the server's
 * `message`, or a general text when the answer has none.
 */
async function requestJson<T>(url: string, init: RequestInit = {}): Promise<T> {
  let response: Response;
  try {
    response = await fetch(url, {
      ...init,
      credentials: 'same-origin',
      headers: { accept: 'application/json', ...init.headers },
    });
  } catch {
    throw new RequestError(0, UNREACHABLE_MESSAGE);
  }
  const body = (await response.json().catch(() => null)) as T | ApiError | null;
  if (!response.ok) {
    const message = (body as ApiError | null)?.message;
    throw new RequestError(response.status, message || UNREACHABLE_MESSAGE);
  }
  return body as T;
}

/** Sends `body` as JSON with `method`. */
function sendJson<T>(method: 'POST' | 'PUT', url: string, body: unknown): Promise<T> {
  return requestJson<T>(url, {
    method,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

const sessionEndedListeners = new Set<() => void>();

/**
 * Runs `listener` whenever the server refuses a call with 401: the session ended (the admin
 * area then sends the owner to sign in). The session store registers the one listener the app
 * needs; returns a function that removes it.
 */
export function onSessionEnded(listener: () => void): () => void {
  sessionEndedListeners.add(listener);
  return () => sessionEndedListeners.delete(listener);
}

/** Passes `request` through; a 401 refusal first tells the onSessionEnded listeners. */
export async function watchSession<T>(request: Promise<T>): Promise<T> {
  try {
    return await request;
  } catch (error) {
    if (error instanceof RequestError && error.status === 401) {
      for (const listener of sessionEndedListeners) listener();
    }
    throw error;
  }
}

/**
 * The site's one API client: JSON in and out with the session cookie, a RequestError with the
 * server's message on refusal, and a 401 reported to the onSessionEnded listeners.
 */
export const api = {
  get: <T>(url: string) => watchSession(requestJson<T>(url)),
  post: <T>(url: string, body: unknown = {}) => watchSession(sendJson<T>('POST', url, body)),
  put: <T>(url: string, body: unknown) => watchSession(sendJson<T>('PUT', url, body)),
  delete: <T>(url: string) => watchSession(requestJson<T>(url, { method: 'DELETE' })),
};
