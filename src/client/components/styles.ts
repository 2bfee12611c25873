/**
 * The public site's shared looks in one place: buttons, fields, banners and cards. The
 * admin's are in admin-styles.ts, so the home page does not load them.
 */

/** Links and buttons that act as calls to action. */
export const primaryButton =
  'inline-flex items-center justify-center gap-2 rounded-full bg-sage-700 px-7 py-3.5 text-base font-semibold text-white no-underline shadow-md shadow-sage-800/15 transition-colors hover:bg-sage-800 hover:no-underline focus-visible:outline-offset-4';

export const secondaryButton =
  'inline-flex items-center justify-center gap-2 rounded-full border border-sage-600 bg-white/70 px-6 py-3 text-base font-semibold text-sage-800 no-underline transition-colors hover:bg-sage-50 hover:no-underline';

/** The card every embedded form sits in. */
export const formCard =
  'mx-auto w-full max-w-2xl rounded-3xl border border-sand-300 bg-white p-6 shadow-sm sm:p-10';

/** The visitor forms' fields and buttons (components/form-parts.tsx). */
export const fieldInput =
  'mt-1.5 block w-full rounded-xl border border-sand-300 bg-white px-4 py-3 text-base text-ink shadow-xs placeholder:text-ink-muted focus:border-sage-600 disabled:cursor-not-allowed disabled:bg-sand-100';

export const formPrimaryButton =
  'inline-flex items-center justify-center gap-2 rounded-full bg-sage-700 px-6 py-3 text-base font-semibold text-white no-underline shadow-sm transition-colors hover:bg-sage-800 hover:no-underline disabled:cursor-not-allowed disabled:opacity-60';

export const formSecondaryButton =
  'inline-flex items-center justify-center gap-2 rounded-full border border-sage-600 bg-white px-6 py-3 text-base font-semibold text-sage-800 no-underline transition-colors hover:bg-sage-50 hover:no-underline disabled:cursor-not-allowed disabled:opacity-60';

/** The sign-in screen's field and full-width button. */
export const signInInput =
  'mt-2 block w-full rounded-lg border border-sand-300 bg-white px-4 py-3 text-base text-ink ' +
  'placeholder:text-ink-muted/80 focus:border-sage-600 focus:outline-2 focus:outline-offset-1 ' +
  'focus:outline-sage-600 disabled:bg-sand-100';

export const signInButton =
  'flex w-full items-center justify-center rounded-lg bg-sage-700 px-4 py-3 text-base font-semibold ' +
  'text-white shadow-sm transition-colors hover:bg-sage-800 disabled:cursor-not-allowed disabled:opacity-70';

/** An outcome message's colours (Banner), by tone. */
export const bannerTones = {
  success: 'border-sage-200 bg-sage-50 text-sage-800',
  duplicate: 'border-amber-300 bg-amber-50 text-amber-900',
  error: 'border-red-300 bg-red-50 text-red-800',
} as const;
