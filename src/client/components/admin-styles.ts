/** The admin area's shared looks: compact buttons and fields. */

/** The admin area's compact buttons (on a link too, as for Export all: no underline). */
export const adminPrimaryButton =
  'inline-flex items-center justify-center gap-2 rounded-lg bg-sage-700 px-3.5 py-2 text-sm font-semibold text-white no-underline shadow-sm transition-colors hover:no-underline hover:bg-sage-800 disabled:cursor-not-allowed disabled:opacity-60';

export const adminSecondaryButton =
  'inline-flex items-center justify-center gap-2 rounded-lg border border-sand-300 bg-white px-3.5 py-2 text-sm font-medium text-sage-800 no-underline shadow-sm transition-colors hover:no-underline hover:bg-sand-100 disabled:cursor-not-allowed disabled:opacity-60';

export const adminIconButton =
  'inline-flex size-9 items-center justify-center rounded-lg text-ink-muted transition-colors hover:bg-sand-100 hover:text-sage-800 disabled:cursor-not-allowed disabled:opacity-40 disabled:hover:bg-transparent';

/** The admin's text fields and selects. */
export const adminInput =
  'rounded-lg border border-sand-300 bg-white px-3 py-2 text-sm text-ink shadow-sm focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-sage-600';

/** A field of the admin's row form: full width, under its label. */
export const adminFormInput =
  'mt-1.5 block w-full rounded-lg border border-sand-300 bg-white px-3.5 py-2.5 text-base text-ink shadow-xs placeholder:text-ink-muted focus:border-sage-600 focus:outline-2 focus:outline-offset-0 focus:outline-sage-600';

export const adminLabel = 'block text-sm font-medium text-ink';
