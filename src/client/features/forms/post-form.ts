import { formApiPath, type FormAnswer } from '../../../shared/forms/form-api';
import type { FormKind } from '../../../shared/forms/form-fields';

/** An error without a message means "show the form's own error text" (SPEC.md §8). */
export type SubmitAnswer =
  Exclude<FormAnswer, { status: 'error' }> | { status: 'error'; message?: string };

/**
 * Sends one submission; never throws. A refusal (4xx) carries the server's message for the
 * visitor; a fault (5xx) or a network failure carries none.
 */
export async function postForm(
  form: FormKind,
  body: Record<string, string | boolean>,
): Promise<SubmitAnswer> {
  try {
    const response = await fetch(formApiPath(form), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
    });
    const answer = (await response.json().catch(() => null)) as Partial<FormAnswer> | null;
    if (response.ok && (answer?.status === 'success' || answer?.status === 'duplicate')) {
      return answer as SubmitAnswer;
    }
    const message =
      response.status < 500 && answer?.status === 'error' ? answer.message : undefined;
    console.warn(`Form ${form} was not accepted (HTTP ${response.status})`);
    return { status: 'error', message };
  } catch (error) {
    console.warn(`Form ${form} could not be sent`, error);
    return { status: 'error' };
  }
}
