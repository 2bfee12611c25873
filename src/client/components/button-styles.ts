/** Shared looks for links and buttons that act as calls to action. */
export const primaryButton =
  'inline-flex items-center justify-center gap-2 rounded-full bg-sage-700 px-7 py-3.5 text-base font-semibold text-white no-underline shadow-md shadow-sage-800/15 transition-colors hover:bg-sage-800 hover:no-underline focus-visible:outline-offset-4';

export const secondaryButton =
  'inline-flex items-center justify-center gap-2 rounded-full border border-sage-600 bg-white/70 px-6 py-3 text-base font-semibold text-sage-800 no-underline transition-colors hover:bg-sage-50 hover:no-underline';

/** The card every embedded form sits in. */
export const formCard =
  'mx-auto w-full max-w-2xl rounded-3xl border border-sand-300 bg-white p-6 shadow-sm sm:p-10';
