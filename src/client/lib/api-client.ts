import type { ApiError } from '../../shared/auth';

/** A refused or failed request, carrying the server's own message (shown to the user as is). */
export class RequestError extends Error {
  constructor(
    /** HTTP status; 0 when the server could not be reached. */
    readonly status: number,
    message: string,
    /** Each bad field's message by its path, when the server named them. */
    readonly fields: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'RequestError';
  }
}

/** The text of a failure the server did not explain (no connection, an answer not its own). */
export const UNREACHABLE_MESSAGE =
  'Something went wrong. Please check your connection and try again.';

/**
 * Calls the site's own API with the session cookie. Resolves with the body as `read` takes it
 * (JSON by default: null when there is none, as for a 204); rejects with a RequestError
 * carrying the server's `message`, or a general text when the answer has none.
 */
async function requestJson<T>(
  url: string,
  init: RequestInit = {},
  read: (response: Response) => Promise<T> = (response) => response.json() as Promise<T>,
): Promise<T> {
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
  if (!response.ok) {
    const error = (await response.json().catch(() => null)) as ApiError | null;
    throw new RequestError(response.status, error?.message || UNREACHABLE_MESSAGE, error?.fields);
  }
  return read(response).catch(() => null as T);
}

/** Sends `body` as JSON with `method`. */
function sendJson<T>(
  method: 'POST' | 'PUT',
  url: string,
  body: unknown,
  read?: (response: Response) => Promise<T>,
): Promise<T> {
  return requestJson<T>(
    url,
    { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
    read,
  );
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
  /** POSTs a text body of its own type (a CSV file) and reads the JSON answer. */
  postText: <T>(url: string, text: string, contentType: string) =>
    watchSession(
      requestJson<T>(url, { method: 'POST', headers: { 'content-type': contentType }, body: text }),
    ),
  /** POSTs JSON and reads the answer as text (an HTML page). */
  postForText: (url: string, body: unknown) =>
    watchSession(sendJson('POST', url, body, (response) => response.text())),
};
