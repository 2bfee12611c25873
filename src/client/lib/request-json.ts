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
export async function requestJson<T>(url: string, init: RequestInit = {}): Promise<T> {
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
export function sendJson<T>(method: 'POST' | 'PUT', url: string, body: unknown): Promise<T> {
  return requestJson<T>(url, {
    method,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

/**
 * Runs `onUnauthorized` when the request is refused with a 401 (the admin session ended); the
 * request still rejects, so the caller shows its error.
 */
export async function watchUnauthorized<T>(
  request: Promise<T>,
  onUnauthorized: () => void,
): Promise<T> {
  try {
    return await request;
  } catch (error) {
    if (error instanceof RequestError && error.status === 401) onUnauthorized();
    throw error;
  }
}
