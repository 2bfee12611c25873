import type { FormKind } from './form-fields';

/** Where each form is sent: `POST /api/forms/:form` with a JSON body. */
export function formApiPath(form: FormKind): string {
  return `/api/forms/${form}`;
}

/**
 * What a form submission answers. `emailSent` false means stored, but the owner was not
 * notified (only the free-guide popup tells the visitor); `guideUrl` is the free guide's link.
 * Rejections (4xx) and faults (5xx) answer `status: 'error'` with a message to show.
 */
export type FormAnswer =
  | { status: 'success'; emailSent: boolean; guideUrl?: string }
  | { status: 'duplicate'; guideUrl?: string }
  | { status: 'error'; message: string };
