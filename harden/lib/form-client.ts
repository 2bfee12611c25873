import type { FormKind } from '../../src/shared/forms/form-fields';

export type FormReply = {
  status: number;
  body: { status?: string; emailSent?: boolean; message?: string } | undefined;
  ms: number;
};

let counter = 0;

/** An address no other submission of this run uses. */
export function uniqueEmail(label: string): string {
  counter += 1;
  return `${label}-${process.pid}-${Date.now()}-${counter}@example.com`;
}

/** One visitor submission as the site's form sends it; a network failure throws. */
export async function submitForm(url: string, form: FormKind, email: string): Promise<FormReply> {
  const started = performance.now();
  const response = await fetch(`${url}/api/forms/${form}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: url },
    body: JSON.stringify({ name: 'Harden Visitor', email, message: 'Checking the form.' }),
  });
  const text = await response.text();
  let body: FormReply['body'];
  try {
    body = JSON.parse(text) as FormReply['body'];
  } catch {
    body = undefined;
  }
  return { status: response.status, body, ms: performance.now() - started };
}
