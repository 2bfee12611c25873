import { authApi, type SessionInfo, type SignedInInfo } from '../../../shared/auth';
import { requestJson, sendJson } from '../../lib/request-json';

/** Emails a sign-in code to the address (an account is created on first sign-in). */
export function sendCode(email: string) {
  return sendJson<{ success: true }>('POST', authApi.sendCode, { email, type: 'sign-in' });
}

export function verifyCode(email: string, otp: string) {
  return sendJson<SignedInInfo>('POST', authApi.signIn, { email, otp });
}

export function fetchSession() {
  return requestJson<SessionInfo>(authApi.session);
}

export function signOutRequest() {
  return sendJson<{ success: true }>('POST', authApi.signOut, {});
}
