import { session } from '../features/auth/session-store';
import { RequestError, requestJson, sendJson } from './request-json';

/** Sends the owner back to sign in when the server no longer accepts the session (401). */
async function guarded<T>(request: Promise<T>): Promise<T> {
  try {
    return await request;
  } catch (error) {
    if (error instanceof RequestError && error.status === 401) session.expired();
    throw error;
  }
}

/** An admin API read. */
export function adminGet<T>(url: string): Promise<T> {
  return guarded(requestJson<T>(url));
}

/** An admin API write with a JSON body. */
export function adminPost<T>(url: string, body: unknown): Promise<T> {
  return guarded(sendJson<T>('POST', url, body));
}
