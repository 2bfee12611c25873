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

/**
 * Who is signed in, as `GET authApi.session` answers (null when nobody is). `isAdmin` says
 * whether the email is on ADMIN_EMAILS now; the admin API checks it again on every request.
 */
export type SessionInfo = { user: { email: string }; isAdmin: boolean; expiresAt: string } | null;

/** `POST authApi.signIn` on success. */
export type SignedInInfo = { user: { email: string }; isAdmin: boolean };

/** `GET authApi.adminSession` for a signed-in admin. */
export type AdminSessionInfo = { email: string };

/** Every error answer of the API. */
/** The one error shape; `fields` names each bad field of a document by its path. */
export type ApiError = { error: string; message: string; fields?: Record<string, string> };
