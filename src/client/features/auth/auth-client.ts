import { authApi, type ApiError, type SessionInfo, type SignedInInfo } from '../../../shared/auth';

/** A refused request, carrying the server's own message (shown to the user as is). */
export class AuthRequestError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'AuthRequestError';
  }
}

const FALLBACK_MESSAGE = 'Something went wrong. Please check your connection and try again.';

async function call<T>(url: string, init: RequestInit = {}): Promise<T> {
  let response: Response;
  try {
    response = await fetch(url, {
      ...init,
      credentials: 'same-origin',
      headers: { accept: 'application/json', ...init.headers },
    });
  } catch {
    throw new AuthRequestError(0, FALLBACK_MESSAGE);
  }
  const body = (await response.json().catch(() => null)) as T | ApiError | null;
  if (!response.ok) {
    const message = (body as ApiError | null)?.message;
    throw new AuthRequestError(response.status, message || FALLBACK_MESSAGE);
  }
  return body as T;
}

function post<T>(url: string, body: unknown) {
  return call<T>(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

/** Emails a sign-in code to the address (an account is created on first sign-in). */
export function sendCode(email: string) {
  return post<{ success: true }>(authApi.sendCode, { email, type: 'sign-in' });
}

export function verifyCode(email: string, otp: string) {
  return post<SignedInInfo>(authApi.signIn, { email, otp });
}

export function fetchSession() {
  return call<SessionInfo>(authApi.session);
}

export function signOutRequest() {
  return post<{ success: true }>(authApi.signOut, {});
}
