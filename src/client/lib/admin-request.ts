import { session } from '../features/auth/session-store';
import { requestJson, sendJson, watchUnauthorized } from './request-json';

/** Sends the owner back to sign in when the server no longer accepts the session (401). */
function guarded<T>(request: Promise<T>): Promise<T> {
  return watchUnauthorized(request, () => session.expired());
}

/** An admin API read. */
export function adminGet<T>(url: string): Promise<T> {
  return guarded(requestJson<T>(url));
}

/** An admin API write with a JSON body. */
export function adminPost<T>(url: string, body: unknown): Promise<T> {
  return guarded(sendJson<T>('POST', url, body));
}

/** An admin API replacement of a record's fields, with a JSON body. */
export function adminPut<T>(url: string, body: unknown): Promise<T> {
  return guarded(sendJson<T>('PUT', url, body));
}
