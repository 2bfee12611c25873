/**
 * Every limit of the emailed sign-in code, in one place (the README lists them).
 * Times are in seconds.
 */
export const authLimits = {
  /** Digits in a sign-in code. */
  codeLength: 6,
  /** A code is accepted for this long after it is sent. */
  codeExpiresIn: 10 * 60,
  /** Wrong guesses allowed per code; the next try is refused even with the right code. */
  codeAttempts: 3,
  /** Codes sent to one email address per window, whoever asks. */
  sendsPerEmail: { max: 3, window: 10 * 60 },
  /** Codes requested from one client IP per window, whatever the addresses. */
  sendsPerIp: { max: 10, window: 10 * 60 },
  /** Sign-in (code check) requests from one client IP per window. */
  verifiesPerIp: { max: 10, window: 60 },
  /** A session ends this long after sign-in; using it does not extend it. */
  sessionExpiresIn: 12 * 60 * 60,
} as const;
