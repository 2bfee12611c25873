import { useCallback, useState, type FormEvent } from 'react';
import { HONEYPOT_FIELD, type FormKind } from '../../../shared/forms/form-fields';
import { postForm } from './post-form';
import { useSubmitState } from './submit-state';

export type VisitorFields = {
  name: string;
  email: string;
  message: string;
  [HONEYPOT_FIELD]: string;
};

const empty: VisitorFields = { name: '', email: '', message: '', [HONEYPOT_FIELD]: '' };

type Options = {
  form: Exclude<FormKind, 'free-guide'>;
  /** SPEC.md §5: required fields; with any blank (trimmed), submit is disabled and a no-op. */
  required: readonly ('name' | 'email' | 'message')[];
  onAttempt?(): void;
  onSuccess?(): void;
};

/**
 * One submit flow for the order, contact, refund and feedback forms: fields, the shared
 * state machine, and Reset. Success clears the fields; Reset clears fields and outcome.
 */
export function useVisitorForm({ form, required, onAttempt, onSuccess }: Options) {
  const [fields, setFields] = useState<VisitorFields>(empty);
  // The form is prerendered: a visitor may type before the app hydrates it. Hydration keeps
  // what the fields show, so the state takes it over once the form element is attached, or
  // submit would send empty fields.
  const formRef = useCallback((formElement: HTMLFormElement | null) => {
    if (!formElement) return;
    const typed: Partial<VisitorFields> = {};
    for (const name of Object.keys(empty) as (keyof VisitorFields)[]) {
      const element = formElement.elements.namedItem(name);
      if (element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement) {
        if (element.value !== '') typed[name] = element.value;
      }
    }
    if (Object.keys(typed).length > 0) setFields((current) => ({ ...current, ...typed }));
  }, []);
  const [state, dispatch] = useSubmitState();
  const loading = state.status === 'loading';
  const complete = required.every((name) => fields[name].trim() !== '');

  const setField = (name: keyof VisitorFields, value: string) =>
    setFields((current) => ({ ...current, [name]: value }));

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (loading || !complete) return;
    onAttempt?.();
    dispatch({ type: 'submit' });
    const body: Record<string, string> = { name: fields.name, email: fields.email };
    if (form !== 'order' || fields.message.trim() !== '') body.message = fields.message;
    if (fields[HONEYPOT_FIELD]) body[HONEYPOT_FIELD] = fields[HONEYPOT_FIELD];
    const answer = await postForm(form, body);
    if (answer.status === 'success') {
      setFields(empty);
      onSuccess?.();
      dispatch({ type: 'success' });
    } else if (answer.status === 'duplicate') {
      dispatch({ type: 'duplicate' });
    } else {
      dispatch({ type: 'error', message: answer.message });
    }
  }

  function reset() {
    setFields(empty);
    dispatch({ type: 'reset' });
  }

  return {
    formRef,
    fields,
    setField,
    status: state.status,
    errorMessage: state.errorMessage,
    loading,
    canSubmit: !loading && complete,
    submit,
    reset,
  };
}
