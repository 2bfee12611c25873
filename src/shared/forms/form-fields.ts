/**
 * The five visitor forms, their field limits and messages: plain constants, no zod, so the
 * home page can import them for free.
 */
export const formKinds = ['order', 'contact', 'refund', 'terms-feedback', 'free-guide'] as const;
export type FormKind = (typeof formKinds)[number];

export function isFormKind(value: string): value is FormKind {
  return (formKinds as readonly string[]).includes(value);
}

export const fieldLimits = { name: 120, email: 254, message: 5000 } as const;

/**
 * Hidden from people, irresistible to bots: a submission with it filled is answered like a
 * success and stored nowhere.
 */
export const HONEYPOT_FIELD = 'website';

export const fieldMessages = {
  nameMissing: 'Please enter your name.',
  nameTooLong: `Your name must be at most ${fieldLimits.name} characters.`,
  emailMissing: 'Please enter your email address.',
  emailTooLong: `Your email address must be at most ${fieldLimits.email} characters.`,
  emailInvalid: 'Please enter a valid email address',
  messageMissing: 'Please enter a message.',
  messageTooLong: `Your message must be at most ${fieldLimits.message} characters.`,
} as const;
