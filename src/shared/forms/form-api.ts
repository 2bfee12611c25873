import type { FormKind } from './form-fields';

/** Where each form is sent: `POST /api/forms/:form` with a JSON body. */
export function formApiPath(form: FormKind): string {
  return `/api/forms/${form}`;
}

/**
 * What a form submission answers. `emailSent` tells whether the owner's email had gone out when
 * the answer left: the free-guide popup waits for that attempt (and tells the visitor when it
 * failed); the other forms answer right after storing, so it is false there and the delivery
 * worker sends the email moments later. `guideUrl` is the free guide's link. Rejections (4xx)
 * and faults (5xx) answer `status: 'error'` with a message to show.
 */
export type FormAnswer =
  | { status: 'success'; emailSent: boolean; guideUrl?: string }
  | { status: 'duplicate'; guideUrl?: string }
  | { status: 'error'; message: string };
