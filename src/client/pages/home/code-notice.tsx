import type { PageCode } from '../../../shared/public-config';

/**
 * The discount code of the page's address: applied (the prices beside it include it), or
 * refused with the reason, the regular price shown. Written by the server, so nothing moves.
 */
export function CodeNotice({ code }: { code: PageCode }) {
  return (
    <p
      role="status"
      data-testid="code-notice"
      className={`w-full text-sm font-semibold ${code.applied ? 'text-sage-800' : 'text-clay-700'}`}
    >
      {code.message}
    </p>
  );
}
