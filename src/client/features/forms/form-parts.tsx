import type { InputHTMLAttributes, ReactNode, TextareaHTMLAttributes } from 'react';
import { HONEYPOT_FIELD } from '../../../shared/forms/form-fields';

export const inputClass =
  'mt-1.5 block w-full rounded-xl border border-sand-300 bg-white px-4 py-3 text-base text-ink shadow-xs placeholder:text-ink-muted focus:border-sage-600 disabled:cursor-not-allowed disabled:bg-sand-100';

export const primaryButtonClass =
  'inline-flex items-center justify-center gap-2 rounded-full bg-sage-700 px-6 py-3 text-base font-semibold text-white no-underline shadow-sm transition-colors hover:bg-sage-800 hover:no-underline disabled:cursor-not-allowed disabled:opacity-60';

export const secondaryButtonClass =
  'inline-flex items-center justify-center gap-2 rounded-full border border-sage-600 bg-white px-6 py-3 text-base font-semibold text-sage-800 no-underline transition-colors hover:bg-sage-50 hover:no-underline disabled:cursor-not-allowed disabled:opacity-60';

type FieldProps = { label: string; id: string } & (
  | ({ multiline?: false } & InputHTMLAttributes<HTMLInputElement>)
  | ({ multiline: true } & TextareaHTMLAttributes<HTMLTextAreaElement>)
);

/** A labelled input or 4-row textarea (SPEC.md §9). */
export function Field({ label, id, ...props }: FieldProps) {
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-ink">
        {label}
      </label>
      {props.multiline ? (
        <textarea
          id={id}
          rows={4}
          {...{ ...props, multiline: undefined }}
          className={`${inputClass} resize-y`}
        />
      ) : (
        <input id={id} {...{ ...props, multiline: undefined }} className={inputClass} />
      )}
    </div>
  );
}

/** Kept out of sight and out of the tab order; a person never fills it, a bot often does. */
export function Honeypot({
  value,
  onChange,
  id,
}: {
  value: string;
  onChange(value: string): void;
  id: string;
}) {
  return (
    <div aria-hidden="true" className="absolute -left-[10000px] h-px w-px overflow-hidden">
      <label htmlFor={id}>Leave this field empty</label>
      <input
        id={id}
        name={HONEYPOT_FIELD}
        type="text"
        tabIndex={-1}
        autoComplete="off"
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
    </div>
  );
}

const tones = {
  success: 'border-sage-200 bg-sage-50 text-sage-800',
  duplicate: 'border-amber-300 bg-amber-50 text-amber-900',
  error: 'border-red-300 bg-red-50 text-red-800',
} as const;

/** An outcome message: polite for success and duplicate, assertive for errors. */
export function Banner({
  tone,
  title,
  children,
}: {
  tone: keyof typeof tones;
  title: string;
  children?: ReactNode;
}) {
  return (
    <div
      role={tone === 'error' ? 'alert' : 'status'}
      className={`rounded-2xl border px-4 py-3 ${tones[tone]}`}
    >
      <p className="font-semibold">{title}</p>
      {children ? <p className="mt-1 text-sm">{children}</p> : null}
    </div>
  );
}
