/** The sign-in API the browser calls (served by better-auth behind the app's own routes). */
export const authApi = {
  sendCode: '/api/auth/email-otp/send-verification-otp',
  signIn: '/api/auth/sign-in/email-otp',
  session: '/api/auth/get-session',
  signOut: '/api/auth/sign-out',
  adminSession: '/api/admin/session',
} as const;

/** Digits in an emailed sign-in code (SPEC.md §9). */
export const CODE_LENGTH = 6;

/** Who is signed in, as `GET authApi.session` answers (null when nobody is). */
export type SessionInfo = { user: { email: string }; expiresAt: string } | null;

/** `GET authApi.adminSession` for a signed-in admin. */
export type AdminSessionInfo = { email: string };

/** Every error answer of the API. */
export type ApiError = { error: string; message: string };
