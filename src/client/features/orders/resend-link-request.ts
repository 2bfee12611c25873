import {
  RESEND_LINK_PATH,
  resendLinkSchema,
  type ResendLinkAnswer,
} from '../../../shared/orders/order-api';
import { api, RequestError } from '../../lib/api-client';

export type ResendOutcome = { status: 'sent' } | { status: 'error'; message: string };

const tryLater = 'We could not send a new link just now. Please try again in a few minutes.';

/**
 * Asks for a fresh download link; never throws. The server answers every valid address the
 * same way, so 'sent' says nothing about whether the address bought the bundle.
 */
export async function requestNewLink(email: string): Promise<ResendOutcome> {
  const input = resendLinkSchema.safeParse({ email });
  if (!input.success) {
    return { status: 'error', message: input.error.issues[0]?.message ?? tryLater };
  }
  try {
    await api.post<ResendLinkAnswer>(RESEND_LINK_PATH, input.data);
    return { status: 'sent' };
  } catch (error) {
    // A refusal (bad address, too many requests) carries a message meant for the visitor.
    if (error instanceof RequestError && (error.status === 400 || error.status === 429)) {
      return { status: 'error', message: error.message };
    }
    return { status: 'error', message: tryLater };
  }
}
