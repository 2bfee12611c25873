import { authApi, type SessionInfo, type SignedInInfo } from '../../../shared/auth';
import { api } from '../../lib/api-client';

/** Emails a sign-in code to the address (an account is created on first sign-in). */
export function sendCode(email: string) {
  return api.post<{ success: true }>(authApi.sendCode, { email, type: 'sign-in' });
}

export function verifyCode(email: string, otp: string) {
  return api.post<SignedInInfo>(authApi.signIn, { email, otp });
}

export function fetchSession() {
  return api.get<SessionInfo>(authApi.session);
}

export function signOutRequest() {
  return api.post<{ success: true }>(authApi.signOut);
}
